// SPDX-License-Identifier: GPL-3.0-or-later
// Left out of CI's ThreadSanitizer build (RAUDIO_PACKAGE_SUBSET=tsan), which has no ReadiumLCP.
#if canImport(ReadiumLCP)
import Foundation
import ReadiumLCP
import ReadiumShared

/// An LCP licence as `raudio lcp info` and `raudio info` show it: JSON for programs, lines for people.
///
/// Never the passphrase (raudio does not keep it) nor the content key; the user's encrypted fields only once
/// the passphrase opened the licence.
struct LicenseSummary {
    let license: LCPLicense

    var json: JSONValue {
        let document = license.document
        var object = JSONObject()
        object["id"] = .string(document.id)
        object["provider"] = .string(document.provider)
        object["profile"] = .string(license.profile)
        object["issued"] = .string(LCPDate.format(document.issued))
        if let updated = document.updated { object["updated"] = .string(LCPDate.format(updated)) }
        object["hint"] = .string(license.hint)
        if let hintLink = document.link("hint")?.href { object["hintLink"] = .string(hintLink) }
        object["unlocked"] = .bool(license.isUnlocked)
        if let refusal = license.refusal {
            object["refused"] = .object(["code": .string(refusal.code.rawValue), "message": .string(refusal.description)])
        }
        var user = JSONObject()
        if let id = license.user.id { user["id"] = .string(id) }
        if let name = license.user.name { user["name"] = .string(name) }
        if let email = license.user.email { user["email"] = .string(email) }
        if !license.isUnlocked, !document.user.encrypted.isEmpty {
            user["encrypted"] = .array(document.user.encrypted.map(JSONValue.string))
        }
        object["user"] = .object(user)
        var rights = JSONObject()
        rights["print"] = license.rights.print.map { .integer(Int64($0)) } ?? .null
        rights["copy"] = license.rights.copy.map { .integer(Int64($0)) } ?? .null
        rights["start"] = license.rights.start.map { .string(LCPDate.format($0)) } ?? .null
        rights["end"] = license.rights.end.map { .string(LCPDate.format($0)) } ?? .null
        object["rights"] = .object(rights)
        var status = JSONObject()
        status["status"] = .string(license.status.status)
        if let message = license.status.message { status["message"] = .string(message) }
        if let updated = license.status.updated { status["updated"] = .string(LCPDate.format(updated)) }
        status["canRenew"] = .bool(license.canRenewLoan)
        status["canReturn"] = .bool(license.canReturnPublication)
        object["status"] = .object(status)
        if let publication = document.link("publication") {
            var link = JSONObject()
            link["href"] = .string(publication.href)
            if let type = publication.type { link["type"] = .string(type) }
            if let length = publication.length { link["length"] = .integer(Int64(length)) }
            if let hash = publication.hash { link["hash"] = .string(hash) }
            object["publication"] = .object(link)
        }
        return .object(object)
    }

    var lines: [String] {
        let document = license.document
        func unlimited(_ value: Int?, _ unit: String) -> String { value.map { "\($0) \(unit)" } ?? "unlimited" }
        let state = license.isUnlocked ? "" : license.refusal.map { " (refused: \($0))" } ?? " (locked: no passphrase given)"
        var lines = ["LCP licence \(document.id)" + state]
        lines.append("  Provider: \(document.provider)")
        var user = [license.user.name, license.user.email, license.user.id].compactMap { $0 }.joined(separator: ", ")
        if user.isEmpty { user = document.user.encrypted.isEmpty ? "not named" : "encrypted (needs the passphrase)" }
        lines.append("  User: \(user)")
        lines.append("  Issued: \(LCPDate.format(document.issued))" + (document.updated.map { ", updated \(LCPDate.format($0))" } ?? ""))
        let start = license.rights.start.map(LCPDate.format) ?? "any time"
        let end = license.rights.end.map(LCPDate.format) ?? "no end"
        lines.append("  Rights: print \(unlimited(license.rights.print, "pages")), copy \(unlimited(license.rights.copy, "characters")), from \(start) to \(end)")
        lines.append("  Status: \(license.status.status)" + (license.status.message.map { " (\($0))" } ?? ""))
        lines.append("  Hint: \(license.hint)" + (document.link("hint").map { " (\($0.href))" } ?? ""))
        lines.append("  Profile: \(license.profile)")
        return lines
    }
}
#endif
