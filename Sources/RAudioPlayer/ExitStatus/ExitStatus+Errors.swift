// SPDX-License-Identifier: GPL-3.0-or-later
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

extension ExitStatus {
    /// The exit status of an error that ends a command: with `init(code:)` and `init(fatalIssueCode:)`
    /// below, the one table from errors to `sysexits.h` codes. An error raudio does not expect is 70.
    public init(for error: any Error) {
        switch error {
        case let failure as CommandFailure: self = failure.status
        case let error as any CodedError: self.init(code: error.code)
        default: self = .internalError
        }
    }

    /// The exit status of an error's code, every code named so that a new one must be given its status.
    ///
    /// A publication or file that is missing is 66; one that is unreadable, corrupt, unsupported, refused
    /// or protected 65 (an LCP publication downloaded that is not the one its licence describes); a server that
    /// cannot be reached or keeps failing 69, as is a speech engine whose
    /// library cannot be loaded or a Piper worker that cannot start; an unknown Piper voice, or a path too long to
    /// name a file, 64; the audio
    /// server 69, the output 73 and 74; a failure of raudio or of a library it drives 70.
    public init(code: RAudioErrorCode) {
        switch code {
        case .notFound, .catalogEntryNotFound:
            self = .inputNotFound
        case .badData, .forbidden, .io, .tooLarge, .remote, .unsupported, .invalidURL,
             .xmlMalformed, .entityDeclaration, .xmlTooLarge, .xmlEncoding, .xmlEmpty,
             .notEPUB, .invalidContainer, .invalidPackage, .noReadableContent, .unreadableSource,
             .smilUnreadable, .smilMalformed, .protected, .noAudio, .unknownHref, .badLocator,
             .trackUnsupported, .corrupt, .trackUnreadable, .seekFailed, .badVoice, .workerFailed,
             .lcpPassphraseMissing, .lcpPassphraseWrong, .lcpLicenseExpired, .lcpLicenseNotYetValid, .lcpLicenseRevoked,
             .lcpLicenseReturned, .lcpLicenseCancelled, .lcpSignatureInvalid, .lcpCertificateRevoked, .lcpProfileUnsupported, .lcpLicenseInvalid,
             .lcpRenewFailed, .lcpReturnFailed, .lcpPublicationMismatch, .lcpCopySpent,
             .alignNoMatch, .alignBadAudio, .alignStale,
             .catalogNotAFeed, .catalogMalformed, .catalogPageLoop, .catalogAuthenticationFailed, .catalogNoOpenAccess:
            self = .badData
        case .remoteUnavailable, .remoteUnreachable, .publicationUnavailable, .sourceUnreachable,
             .hostNotFound, .hostUnreachable, .tls, .tooManyRedirects, .timedOut, .connectionLost, .httpFailed,
             .libraryUnavailable, .workerUnavailable, .lcpNetwork:
            self = .serviceUnavailable
        case .piperUnknownVoice, .nameTooLong:
            self = .usage
        case .serverUnavailable, .serverLost:
            self = .audioServerUnavailable
        case .cannotCreate:
            self = .cannotCreateOutput
        case .writeFailed, .unwritableOutput:
            self = .outputIOError
        case .invalidNarration, .contentUnsupported, .contentUnknownHref, .unreadableResource,
             .outputFormatUnsupported, .ttsUnknownVoice, .invalidLanguage, .engineUnavailable, .synthesisFailed,
             .cancelled, .voicePresetInvalid, .dbusCallFailed, .resamplerFailed, .stateDamaged, .stateBusy,
             .stateFailed:
            self = .internalError
        }
    }

    /// The exit status for a fatal problem reported by a navigator, from its code: the same statuses as
    /// the errors behind those codes above.
    public init(fatalIssueCode code: NavigatorIssue.Code) {
        switch code {
        case .audioServerUnavailable, .audioServerLost, .outputLost: self = .audioServerUnavailable
        // A remote book whose server cannot be reached, or keeps refusing, up to its end.
        case .trackUnreachable, .trackUnavailable: self = .serviceUnavailable
        case .outputNotCreated: self = .cannotCreateOutput
        case .outputWriteFailed: self = .outputIOError
        case .internalError: self = .internalError
        default: self = .badData
        }
    }
}
