// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumShared

/// Why an LCP licence's network part failed or refused: its status document says the loan is over (revoked,
/// returned, cancelled, expired: the message gives the date), a renew or return was refused (the server's problem
/// details in the message), a server cannot be reached, a downloaded publication is not the one the licence
/// describes. Codes: the `lcp-…` section of `RAudioErrorCode`; the subject is the licence or the URL.
public typealias LCPNetworkError = RAudioError<LCPNetworkErrorDomain>

/// The domain of `LCPNetworkError`.
public enum LCPNetworkErrorDomain: RAudioErrorDomain {}
