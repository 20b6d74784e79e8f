// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReadiumShared

/// The network part of an LCP licence's validation, as Readium's state machine does it: the status document,
/// a newer licence, device registration, and the renew and return actions.
///
/// A status check never blocks playback: offline, unreachable, slow (past `statusTimeout`) or malformed, it
/// becomes a warning and the licence is used as it is. What it refuses is a loan its status says is over
/// (`revoked`, `returned`, `cancelled`, `expired`), with the date. Renew and return need the server and fail
/// with `lcp-status-unreachable` without it. Calls block the calling thread (the HTTP client's contract).
public final class LCPStatusService: Sendable {
    /// What a status check found.
    public struct Report: Sendable {
        /// The status document, when it could be fetched.
        public var status: StatusDocument?
        /// The text of a newer licence the status document links (its `updated` is later than the licence's),
        /// to be checked by the LCP client and written back into the package.
        public var newerLicense: Data?
        /// Why something was skipped (offline, unreachable, malformed): for `warning` events, never fatal.
        public var warnings: [LCPStatusWarning] = []
        /// Whether this check registered the device (`register` link, once per licence).
        public var registeredDevice = false
    }

    /// What a renewal did.
    public enum RenewOutcome: Sendable {
        /// Renewed: the new status, and the renewed licence to write back into the package (nil if unchanged).
        case renewed(StatusDocument, newerLicense: Data?)
        /// The provider renews on a web page: this URL is for the user to open.
        case webPage(String)
    }

    /// Bodies of status documents, licences and problem details are small; more is refused.
    static let maximumDocumentSize = 1 << 20

    private let client: (any HTTPClient)?
    public let policy: LCPNetworkPolicy
    public let device: LCPDevice
    private let registry: any LCPDeviceRegistry

    public init(client: (any HTTPClient)?, policy: LCPNetworkPolicy = .fromEnvironment(), device: LCPDevice,
                registry: any LCPDeviceRegistry = LCPMemoryDeviceRegistry()) {
        self.client = client
        self.policy = policy
        self.device = device
        self.registry = registry
    }

    // MARK: Status check

    /// Fetches the licence's status document, a newer licence and registers the device; throws only when the
    /// status refuses the loan (`LCPError.licenseStatus`). `source` names the book or licence file in messages.
    public func check(_ license: LicenseDocument, source: String) throws(LCPError) -> Report {
        var report = Report()
        guard let statusLink = license.link("status") else { return report }
        guard policy.fetchesAllowed, client != nil else {
            report.warnings.append(LCPStatusWarning(.statusOffline, source: source, "the LCP licence's status was not checked: network fetches are off (\(LCPNetworkPolicy.offlineVariable))"))
            return report
        }
        let status: StatusDocument
        do {
            status = try fetchStatus(statusLink.href, timeout: policy.statusTimeout)
        } catch {
            report.warnings.append(LCPStatusWarning(.statusUnavailable, source: source, "the LCP licence's status was not checked, playing with the licence as it is: \(error)"))
            return report
        }
        report.status = status
        // A newer licence first: it may carry the rights the status speaks of.
        if status.licenseUpdated > license.signatureDate {
            if let link = status.link("license") {
                do {
                    let data = try fetchLicense(link.href, expectedID: license.id, timeout: policy.statusTimeout)
                    report.newerLicense = data
                } catch {
                    report.warnings.append(LCPStatusWarning(.licenseNotUpdated, source: source, "a newer LCP licence could not be fetched: \(error)"))
                }
            } else {
                report.warnings.append(LCPStatusWarning(.licenseNotUpdated, source: source, "the status document says the licence changed but links no newer licence"))
            }
        }
        try Self.refuseIfOver(status, license: license)
        if status.status == .ready || status.status == .active, let link = status.link("register"),
           !registry.isRegistered(licenseID: license.id) {
            do {
                let (head, body) = try perform(expand(link), method: .post, timeout: policy.statusTimeout)
                if head.isSuccess {
                    registry.markRegistered(licenseID: license.id)
                    report.registeredDevice = true
                } else {
                    report.warnings.append(LCPStatusWarning(.registerFailed, source: source, "the device could not be registered for the LCP licence: \(Self.problem(head, body))"))
                }
            } catch {
                report.warnings.append(LCPStatusWarning(.registerFailed, source: source, "the device could not be registered for the LCP licence: \(error)"))
            }
        }
        return report
    }

    /// Throws for a status that ends the loan, with its date (Readium's `StatusError`): revoked, returned and
    /// cancelled on the status's date, expired at the licence's end (else the status's date).
    public static func refuseIfOver(_ status: StatusDocument, license: LicenseDocument) throws(LCPError) {
        switch status.status {
        case .ready, .active:
            return
        case .revoked:
            throw .licenseStatus(.revoked(status.statusUpdated, devicesCount: status.registeredDevicesCount))
        case .returned:
            throw .licenseStatus(.returned(status.statusUpdated))
        case .cancelled:
            throw .licenseStatus(.cancelled(status.statusUpdated))
        case .expired:
            throw .licenseStatus(.expired(start: license.rights.start, end: license.rights.end ?? status.statusUpdated))
        }
    }

    // MARK: Renew and return

    /// Renews the loan (the status document's `renew` link, PUT, with `end` when given).
    public func renew(_ license: LicenseDocument, source: String, end: Date? = nil) throws(LCPNetworkError) -> RenewOutcome {
        let status = try requiredStatus(license, source: source, action: "renewed")
        guard let link = status.link("renew") else {
            throw LCPNetworkError(.lcpRenewFailed, subject: source, message: "the LCP loan cannot be renewed: its status document has no renew link (status \(status.status.rawValue))")
        }
        if link.type?.lowercased().hasPrefix("text/html") == true {
            return .webPage(link.href)
        }
        var extra: [String: String] = [:]
        if let end { extra["end"] = LCPDate.format(end) }
        let (head, body) = try perform(expand(link, extra), method: .put, timeout: policy.actionTimeout, code: .lcpNetwork)
        guard head.isSuccess else {
            let reason: String
            switch head.status {
            case 400: reason = "the server refused the renewal"
            case 403: reason = "the renewal period is not allowed" + (status.potentialRightsEnd.map { " (latest possible end \(LCPDate.format($0)))" } ?? "")
            default: reason = "the server answered the renewal with \(head.statusDescription)"
            }
            throw LCPNetworkError(.lcpRenewFailed, subject: source, message: "\(reason): \(Self.problem(head, body))")
        }
        let renewed = (try? StatusDocument(data: body, source: link.href)) ?? status
        return .renewed(renewed, newerLicense: try updatedLicense(after: renewed, license: license))
    }

    /// Returns the loan (the status document's `return` link, PUT). Gives the new status and the licence to
    /// write back into the package, when the server changed it.
    public func returnLoan(_ license: LicenseDocument, source: String) throws(LCPNetworkError) -> (StatusDocument, newerLicense: Data?) {
        let status = try requiredStatus(license, source: source, action: "returned")
        guard let link = status.link("return") else {
            throw LCPNetworkError(.lcpReturnFailed, subject: source, message: "the LCP loan cannot be returned: its status document has no return link (status \(status.status.rawValue))")
        }
        let (head, body) = try perform(expand(link), method: .put, timeout: policy.actionTimeout, code: .lcpNetwork)
        guard head.isSuccess else {
            let reason: String
            switch head.status {
            case 400: reason = "the server refused the return"
            case 403: reason = "the loan is already returned or expired"
            default: reason = "the server answered the return with \(head.statusDescription)"
            }
            throw LCPNetworkError(.lcpReturnFailed, subject: source, message: "\(reason): \(Self.problem(head, body))")
        }
        let returned = (try? StatusDocument(data: body, source: link.href)) ?? status
        return (returned, try updatedLicense(after: returned, license: license))
    }

    private func requiredStatus(_ license: LicenseDocument, source: String, action: String) throws(LCPNetworkError) -> StatusDocument {
        guard let statusLink = license.link("status") else {
            let code: RAudioErrorCode = action == "renewed" ? .lcpRenewFailed : .lcpReturnFailed
            throw LCPNetworkError(code, subject: source, message: "the LCP loan cannot be \(action): the licence links no status document")
        }
        guard policy.fetchesAllowed, client != nil else {
            throw LCPNetworkError(.lcpNetwork, subject: source, message: "the LCP loan cannot be \(action): network fetches are off (\(LCPNetworkPolicy.offlineVariable))")
        }
        return try fetchStatus(statusLink.href, timeout: policy.actionTimeout)
    }

    /// The licence the status links when it is newer than `license`, fetched.
    private func updatedLicense(after status: StatusDocument, license: LicenseDocument) throws(LCPNetworkError) -> Data? {
        guard status.licenseUpdated > license.signatureDate, let link = status.link("license") else { return nil }
        return try fetchLicense(link.href, expectedID: license.id, timeout: policy.actionTimeout)
    }

    // MARK: Fetching

    func fetchStatus(_ url: String, timeout: TimeInterval) throws(LCPNetworkError) -> StatusDocument {
        let (head, body) = try perform(url, method: .get, timeout: timeout, code: .lcpNetwork)
        guard head.isSuccess else {
            throw LCPNetworkError(.lcpNetwork, subject: url, message: "the status server answered \(head.statusDescription)")
        }
        return try StatusDocument(data: body, source: url)
    }

    func fetchLicense(_ url: String, expectedID: String, timeout: TimeInterval) throws(LCPNetworkError) -> Data {
        let (head, body) = try perform(url, method: .get, timeout: timeout, code: .lcpNetwork)
        guard head.isSuccess else {
            throw LCPNetworkError(.lcpNetwork, subject: url, message: "the licence server answered \(head.statusDescription)")
        }
        let newer: LicenseDocument
        do {
            newer = try LicenseDocument(data: body, source: url)
        } catch {
            throw LCPNetworkError(.lcpLicenseInvalid, subject: url, message: "the newer licence is not a licence document: \(error)")
        }
        guard newer.id == expectedID else {
            throw LCPNetworkError(.lcpLicenseInvalid, subject: url, message: "the newer licence has the id \(newer.id), not \(expectedID)")
        }
        return body
    }

    /// The link's URL with this device's `id` and `name` (and `extra`) filled in when templated.
    func expand(_ link: LicenseDocument.Link, _ extra: [String: String] = [:]) -> String {
        guard link.templated else { return link.href }
        return URITemplate.expand(link.href, ["id": device.id, "name": device.name].merging(extra) { $1 })
    }

    /// One request with a deadline; the body is kept up to `maximumDocumentSize`.
    func perform(_ url: String, method: HTTPRequest.Method, timeout: TimeInterval, code: RAudioErrorCode = .lcpNetwork) throws(LCPNetworkError) -> (HTTPResponseHead, Data) {
        guard let client, policy.fetchesAllowed else {
            throw LCPNetworkError(code, subject: url, message: "network fetches are off (\(LCPNetworkPolicy.offlineVariable))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var body = Data()
        var tooLarge = false
        let head: HTTPResponseHead
        do {
            head = try client.perform(HTTPRequest(url: url, method: method, acceptsCompression: true), shouldStop: { Date() > deadline }) { _, chunk in
                guard body.count + chunk.count <= Self.maximumDocumentSize else {
                    tooLarge = true
                    return false
                }
                body.append(contentsOf: chunk)
                return true
            }
        } catch {
            throw LCPNetworkError(code, subject: url, message: "the server cannot be reached: \(error.message)", cause: error)
        }
        if tooLarge {
            throw LCPNetworkError(.lcpLicenseInvalid, subject: url, message: "the answer is larger than \(Self.maximumDocumentSize) bytes")
        }
        if Date() > deadline, head.status == 0 || !head.isSuccess || body.isEmpty {
            throw LCPNetworkError(code, subject: url, message: "no answer within \(Int(timeout)) s")
        }
        return (head, body)
    }

    /// An RFC 7807 problem details body (`title`, `detail`) or the status, for messages.
    static func problem(_ head: HTTPResponseHead, _ body: Data) -> String {
        let status = head.statusDescription
        guard let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return status }
        let parts = [json["title"] as? String, json["detail"] as? String].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? status : "\(status), \(parts.joined(separator: ": "))"
    }
}

/// A warning of a status check: it never stops the book from opening. `code` is what a `warning` event carries.
public struct LCPStatusWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Network fetches are off (`RAUDIO_LCP_OFFLINE`): the status was not checked.
        case statusOffline = "lcp-status-offline"
        /// The status document could not be fetched or read: the licence is used as it is.
        case statusUnavailable = "lcp-status-unavailable"
        /// A newer licence was fetched, checked and used (and written back into the package when it could be).
        case licenseUpdated = "lcp-license-updated"
        /// A newer licence could not be fetched, checked or written back: the one in hand is used.
        case licenseNotUpdated = "lcp-license-not-updated"
        /// The device could not be registered for the licence.
        case registerFailed = "lcp-register-failed"
    }

    public var code: Code
    /// The book or licence file the warning is about, as the check named it.
    public var source: String
    public var message: String

    public init(_ code: Code, source: String, _ message: String) {
        (self.code, self.source, self.message) = (code, source, message)
    }

    public var description: String { "\(source): \(message)" }
}
