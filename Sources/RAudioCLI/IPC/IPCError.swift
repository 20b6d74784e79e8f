// SPDX-License-Identifier: GPL-3.0-or-later
/// The IPC server could not start: an address in use, a path that is not a stale socket...
struct IPCError: Error {
    var code = "ipc-unavailable"
    var message: String
}
