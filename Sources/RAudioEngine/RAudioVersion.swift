// SPDX-License-Identifier: GPL-3.0-or-later
/// The version of raudio itself: the one place it is written.
///
/// `raudio version`, `raudio --version`, the Debian package (`make deb` asks the built binary) and the
/// newest entry of CHANGELOG.md (checked by a test) all follow it. Change it here when releasing.
public enum RAudioVersion {
    public static let current = "0.1.0"
}
