// SPDX-License-Identifier: GPL-3.0-or-later
/// What went wrong, as a stable word for programs: the `code` of every `RAudioError`, and of `error` and
/// `warning` events.
///
/// One list for every module, because the words share one namespace where programs read them (an event's
/// `code`, `raudio --json`'s reports, docs/events.md's table): a word means one thing whichever module
/// reports it, and the compiler refuses two cases with one word. Which module an error comes from is its
/// domain (`ResourceError`, `TTSError`, ... are `RAudioError` of their module's domain); a module uses the
/// codes of its own section below. The raw value is the word.
public enum RAudioErrorCode: String, Sendable, Hashable, CaseIterable {
    // MARK: Resources and publications (ResourceError, OpeningError)

    /// The resource or publication does not exist.
    case notFound = "not-found"
    /// A path, or one of its names, is longer than the system allows (`ENAMETOOLONG`: 4,096 bytes or more in
    /// all, or a name over 255 bytes), so it cannot name a file.
    case nameTooLong = "name-too-long"
    /// The bytes are unreadable: corrupt, truncated, or not what they claim to be (not a ZIP, no manifest...).
    case badData = "bad-data"
    /// An href leaves the publication's root (`../`, an absolute path, a link out), or a resource is too
    /// large to be safe to open.
    case forbidden = "forbidden-href"
    /// The operating system failed to read it.
    case io = "io"
    /// The resource is too large to read this way (for example a ZIP bomb).
    case tooLarge = "too-large"
    /// The href points to the network, and this container reads local files only.
    case remote = "remote-resource"
    /// A remote resource cannot be fetched: its server is unreachable, refuses it, or keeps failing.
    case remoteUnavailable = "remote-unavailable"
    /// A remote resource's server cannot be reached at all (no connection, the host does not resolve),
    /// after the retries: the other resources of that server cannot be fetched either.
    case remoteUnreachable = "remote-unreachable"
    /// A publication of a kind raudio does not open (an LCP license alone, a PDF, ...).
    case unsupported = "unsupported"
    /// A remote publication's server is unreachable, refuses it, or keeps failing.
    case publicationUnavailable = "unavailable"

    // MARK: HTTP (HTTPError): the network failed, not the server's answer

    /// The URL is not an `http://` or `https://` URL raudio may fetch.
    case invalidURL = "url-invalid"
    /// The host name does not resolve.
    case hostNotFound = "host-not-found"
    /// The host refused the connection or cannot be reached.
    case hostUnreachable = "host-unreachable"
    /// The TLS handshake or the server's certificate failed.
    case tls = "tls-failed"
    /// More redirects than allowed, or a redirect loop.
    case tooManyRedirects = "too-many-redirects"
    /// No byte arrived for too long (connecting or receiving).
    case timedOut = "timed-out"
    /// The connection broke before the response was complete.
    case connectionLost = "connection-lost"
    /// Anything else the HTTP library reported.
    case httpFailed = "http-failed"

    // MARK: XML documents (XMLError)

    /// The document is not well-formed XML (the parser's message, line and column say where).
    case xmlMalformed = "xml-malformed"
    /// The DOCTYPE declares entities (`<!ENTITY`): refused, as a defence against entity expansion
    /// ("billion laughs") and external entities (XXE).
    case entityDeclaration = "xml-entity-declaration"
    /// The document is larger than the size limit.
    case xmlTooLarge = "xml-too-large"
    /// The bytes cannot be decoded in the declared or detected encoding.
    case xmlEncoding = "xml-encoding"
    /// The document has no root element.
    case xmlEmpty = "xml-empty"

    // MARK: EPUB (EPUBError, EPUBWriteError)

    /// No `META-INF/container.xml`: the container is not an EPUB.
    case notEPUB = "epub-not-epub"
    /// `container.xml` is unreadable or names no package document.
    case invalidContainer = "epub-invalid-container"
    /// The package document (OPF) is missing or not well-formed XML.
    case invalidPackage = "epub-invalid-package"
    /// No item of the spine can be read: nothing to read or play.
    case noReadableContent = "epub-no-readable-content"
    /// The source EPUB of a narrated EPUB cannot be read (not a ZIP, no container, no package document, a
    /// content document that is not well-formed UTF-8 XHTML).
    case unreadableSource = "epub-write-unreadable-source"
    /// A narrated document is not a content document of the book, or its audio file cannot be read.
    case invalidNarration = "epub-write-invalid-narration"
    /// The output of a narrated EPUB (or its temporary file beside it) cannot be written.
    case unwritableOutput = "epub-write-unwritable-output"

    // MARK: Media overlays (MediaOverlayError)

    /// The SMIL file is missing or unreadable.
    case smilUnreadable = "smil-unreadable"
    /// The SMIL file is not well-formed XML, or not SMIL.
    case smilMalformed = "smil-malformed"

    // MARK: Content iteration (ContentError)

    /// The publication has no content service (an audiobook, a format without text).
    case contentUnsupported = "content-unsupported"
    /// The starting locator's href is not in the reading order.
    case contentUnknownHref = "content-unknown-href"
    /// A resource could not be read at all.
    case unreadableResource = "content-unreadable-resource"

    // MARK: Audio navigation (AudioNavigatorError, AudioDecoderError, AudioSinkError)

    /// The publication is protected by LCP or another DRM.
    case protected = "protected"
    /// The reading order has no audio.
    case noAudio = "no-audio"
    /// A locator or link names a resource that is not in the reading order.
    case unknownHref = "unknown-href"
    /// A locator cannot be placed (for example a progression in a track of unknown duration).
    case badLocator = "bad-locator"
    /// The format of a track is recognized but not supported.
    case trackUnsupported = "track-unsupported"
    /// The bytes of a track are not decodable audio, or the stream breaks part-way.
    case corrupt = "track-corrupt"
    /// A track could not be read.
    case trackUnreadable = "track-unreadable"
    /// A track's server cannot be reached at all (`remote-unreachable` under it).
    case sourceUnreachable = "track-unreachable"
    /// Seeking in a track failed.
    case seekFailed = "seek-failed"
    /// No audio server could be reached (exit 69).
    case serverUnavailable = "audio-server-unavailable"
    /// The audio server went away while playing (exit 69).
    case serverLost = "audio-server-lost"
    /// The output file cannot be created (exit 73).
    case cannotCreate = "output-not-created"
    /// Writing the output failed, for example a full disk (exit 74).
    case writeFailed = "output-write-failed"
    /// The output cannot take this format.
    case outputFormatUnsupported = "output-format"

    // MARK: Speech (TTSError, PiperError, VoicePresetError)

    /// No voice of the engine has the identifier asked for.
    case ttsUnknownVoice = "tts-unknown-voice"
    /// The language tag is malformed.
    case invalidLanguage = "tts-invalid-language"
    /// The engine could not start (its data is missing, for eSpeak NG `espeak_Initialize` failed).
    case engineUnavailable = "tts-engine-unavailable"
    /// The engine's shared library could not be loaded (for eSpeak NG, libespeak-ng.so.1 is missing or
    /// broken); the message names the file (exit 69).
    case libraryUnavailable = "tts-library-unavailable"
    /// The engine failed while synthesizing (for eSpeak NG, a non-OK `espeak_ERROR`).
    case synthesisFailed = "tts-synthesis-failed"
    /// The caller cancelled the utterance.
    case cancelled = "tts-cancelled"
    /// No Piper voice has the name asked for.
    case piperUnknownVoice = "piper-unknown-voice"
    /// The Piper model or its config is missing, truncated or not a Piper voice.
    case badVoice = "piper-bad-voice"
    /// The Piper worker cannot start: no Python with piper-tts (run `make deps`), or no worker script.
    case workerUnavailable = "piper-worker-unavailable"
    /// The Piper worker exited or broke its protocol while speaking.
    case workerFailed = "piper-worker-failed"
    /// A voice preset file is unreadable, not JSON, or not a valid preset.
    case voicePresetInvalid = "voice-preset-invalid"

    // MARK: Readium LCP's network part (LCPNetworkError): acquiring a publication

    /// The publication downloaded for an LCP licence does not have the `length` or SHA-256 `hash` the licence gives: not written.
    case lcpPublicationMismatch = "lcp-publication-mismatch"
    /// The `copy` right of an LCP licence is spent: `raudio text` has handed out as many characters as it allows
    /// (counted in the listening state), or cannot count them there.
    case lcpCopySpent = "lcp-copy-spent"

    // MARK: The engine's C libraries (DBusError, ResamplerError)

    /// An sd-bus function returned a negative status.
    case dbusCallFailed = "dbus-failed"
    /// soxr could not make a resampler (`soxr_create` failed).
    case resamplerFailed = "resampler-failed"

    // MARK: Readium LCP (LCPError, through OpeningError)

    /// An LCP book needs its passphrase and none was given, stored or could be asked (no terminal).
    case lcpPassphraseMissing = "lcp-passphrase-missing"
    /// The passphrase given (or every one stored) fails the licence's key check.
    case lcpPassphraseWrong = "lcp-passphrase-wrong"
    /// The licence's rights ended (`rights.end` past, or its status says expired); the message gives the dates.
    case lcpLicenseExpired = "lcp-license-expired"
    /// The licence's rights have not started (`rights.start` in the future); the message gives the dates.
    case lcpLicenseNotYetValid = "lcp-license-not-yet-valid"
    /// The licence's status document says it was revoked.
    case lcpLicenseRevoked = "lcp-license-revoked"
    /// The loan was returned (status document).
    case lcpLicenseReturned = "lcp-license-returned"
    /// The licence was cancelled before use (status document).
    case lcpLicenseCancelled = "lcp-license-cancelled"
    /// The licence's signature does not verify, or its certificate does not chain to a trusted LCP root or was
    /// not valid at the licence's date.
    case lcpSignatureInvalid = "lcp-signature-invalid"
    /// The licence's provider certificate is listed by the certificate revocation list (a CRL its issuer signed).
    case lcpCertificateRevoked = "lcp-certificate-revoked"
    /// The licence's encryption profile needs a certified LCP client, which this raudio does not have.
    case lcpProfileUnsupported = "lcp-profile-unsupported"
    /// The licence document is malformed, missing from its package, or otherwise unusable.
    case lcpLicenseInvalid = "lcp-license-invalid"
    /// A licence server (status document, renewal, return, fresh licence) cannot be reached or fails.
    case lcpNetwork = "lcp-network"
    /// The server refused to renew the loan, or the renewal period is invalid.
    case lcpRenewFailed = "lcp-renew-failed"
    /// The server refused the return, or the loan is already returned or expired.
    case lcpReturnFailed = "lcp-return-failed"

    // MARK: OPDS catalogs (OPDSError, ReadiumOPDS)

    /// What a catalog URL served is not an OPDS feed: a web page, an OpenSearch description, plain text.
    case catalogNotAFeed = "catalog-not-a-feed"
    /// A catalog feed is truncated or malformed (not well-formed XML, not valid JSON).
    case catalogMalformed = "catalog-malformed"
    /// A catalog's `next` links lead back to a page already read, or past the most pages raudio follows.
    case catalogPageLoop = "catalog-page-loop"
    /// A catalog refused the credentials given (401 or 403 after signing in), or asks to sign in and none were given.
    case catalogAuthenticationFailed = "catalog-authentication-failed"
    /// The entry asked for (`CATALOG-URL#ENTRY`) is not in the feed.
    case catalogEntryNotFound = "catalog-entry-not-found"
    /// A catalog entry has no link raudio can open: only links to buy, or to borrow through a DRM it does not have.
    case catalogNoOpenAccess = "catalog-no-open-access"

    // MARK: The listening state's store (StateStoreError)

    /// The file is not an intact SQLite database, or a row holds what its column cannot: moved aside and replaced.
    case stateDamaged = "damaged"
    /// Another process held a lock for longer than the busy timeout.
    case stateBusy = "busy"
    /// Any other failure of SQLite (a full disk, a folder that cannot be written).
    case stateFailed = "failed"

    // MARK: Aligning a narration with its text (raudio align)

    /// No part of the narration matches the text: the audio of another book, or in another language than the text.
    case alignNoMatch = "align-no-match"
    /// A file of the narration cannot be decoded, or holds no audio (an empty file).
    case alignBadAudio = "align-bad-audio"
    /// An alignment's sentences are not the book's (another edition): align it again.
    case alignStale = "align-stale"
}
