// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// `LCPService`'s status checker (`LCPStatusChecking`) over `LCPStatusService`: the status document, a newer
/// licence (adopted once the service checked it, and written back into `package` when there is one), device
/// registration. Its warnings (offline, unreachable, a newer licence used or one that cannot be written) go to
/// `onWarning`; they never stop the book from opening.
public struct LCPNetworkStatusChecker: LCPStatusChecking {
    public let service: LCPStatusService
    /// The ZIP package the licence came from, which a newer licence is written into; nil for a lone `.lcpl`
    /// (written over the file when `licenseFile` is set) or a remote one.
    public var package: URL?
    /// A `.lcpl` file a newer licence replaces.
    public var licenseFile: URL?
    public var onWarning: @Sendable (LCPStatusWarning) -> Void
    /// Checks a newer licence's signature before it is adopted or written (the basic-profile client's check); a
    /// newer licence that fails it is ignored with a warning.
    public var signatureCheck: BasicProfileLCPClient?

    public init(service: LCPStatusService, package: URL? = nil, licenseFile: URL? = nil, signatureCheck: BasicProfileLCPClient? = BasicProfileLCPClient(),
                onWarning: @escaping @Sendable (LCPStatusWarning) -> Void = { _ in }) {
        self.service = service
        self.signatureCheck = signatureCheck
        self.package = package
        self.licenseFile = licenseFile
        self.onWarning = onWarning
    }

    public func check(_ document: LicenseDocument, source: String) throws(LCPError) -> (status: LCPStatusSummary, updatedDocument: LicenseDocument?) {
        let report = try service.check(document, source: source)
        report.warnings.forEach(onWarning)
        guard let status = report.status else { return (.unknownOffline, nil) }
        var updated: LicenseDocument?
        if let data = report.newerLicense, let newer = try? LicenseDocument(data: data, source: source) {
            if let signatureCheck {
                do {
                    try signatureCheck.verifySignature(of: newer)
                } catch {
                    onWarning(LCPStatusWarning(.licenseNotUpdated, source: source, "the newer LCP licence the status document links is not used: \(error)"))
                    return (Self.summary(of: status), nil)
                }
            }
            updated = newer
            let (package, licenseFile) = self.package != nil || self.licenseFile != nil
                ? (self.package, self.licenseFile) : Self.files(ofSource: source)
            let dates = "updated \(LCPDate.format(newer.signatureDate))" + (newer.rights.end.map { ", rights until \(LCPDate.format($0))" } ?? "")
            do {
                if let package {
                    try LicenseWriteBack.write(data, into: package)
                    onWarning(LCPStatusWarning(.licenseUpdated, source: source, "a newer LCP licence (\(dates)) is used and was written into \(package.path)"))
                } else if let licenseFile {
                    try data.write(to: licenseFile, options: .atomic)
                    onWarning(LCPStatusWarning(.licenseUpdated, source: source, "a newer LCP licence (\(dates)) is used and was written over \(licenseFile.path)"))
                } else {
                    onWarning(LCPStatusWarning(.licenseUpdated, source: source, "a newer LCP licence (\(dates)) is used for this session"))
                }
            } catch {
                onWarning(LCPStatusWarning(.licenseNotUpdated, source: source, "a newer LCP licence (\(dates)) is used for this session but could not be written back: \(error)"))
            }
        }
        return (Self.summary(of: status), updated)
    }

    /// What `raudio lcp info` and `LCPLicense` show of a status document.
    public static func summary(of status: StatusDocument) -> LCPStatusSummary {
        LCPStatusSummary(
            status: status.status.rawValue, updated: status.statusUpdated, message: status.message,
            renewLink: status.link("renew")?.href, returnLink: status.link("return")?.href,
            potentialRightsEnd: status.potentialRightsEnd, devicesCount: status.registeredDevicesCount)
    }

    /// Where the licence named by `source` lives, as `LCPContentProtection` names it: `PACKAGE: license.lcpl` (or
    /// `: META-INF/license.lcpl`) for a package on this machine, the path of a `.lcpl` file itself; nil for the rest.
    static func files(ofSource source: String) -> (package: URL?, licenseFile: URL?) {
        for suffix in [": license.lcpl", ": META-INF/license.lcpl"] where source.hasSuffix(suffix) {
            let path = String(source.dropLast(suffix.count))
            return FileManager.default.fileExists(atPath: path) ? (URL(fileURLWithPath: path), nil) : (nil, nil)
        }
        if source.lowercased().hasSuffix(".lcpl"), FileManager.default.fileExists(atPath: source) {
            return (nil, URL(fileURLWithPath: source))
        }
        return (nil, nil)
    }
}
