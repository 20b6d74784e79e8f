// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import RAudioPlayer

/// The `Sec-WebSocket-Key` rule of RFC 6455 §4.1: exactly one, the base64 of 16 bytes (24 characters).
enum IPCWebSocketKey {
    static func isValid(_ values: [String]) -> Bool {
        guard values.count == 1, let key = values.first?.trimmingCharacters(in: .whitespaces), key.utf8.count == 24,
              let nonce = Data(base64Encoded: key) else { return false }
        return nonce.count == 16
    }
}
