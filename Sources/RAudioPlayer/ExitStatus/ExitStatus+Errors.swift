// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioEngine
import ReadiumNavigator
import ReadiumShared
import ReadiumStreamer

extension ExitStatus {
    /// The exit status of an error that ends a command: with `init(fatalIssueCode:)` below, the one table
    /// from errors to `sysexits.h` codes.
    ///
    /// A publication that cannot be opened is 66 when missing, 69 when its server cannot be reached, else 65;
    /// a speech engine whose library cannot be loaded 69, one that fails to start 70; a Piper voice that is
    /// unknown 64, broken 65, with no worker to speak it 69; a navigator that cannot be made 65. An error
    /// raudio does not expect is 70.
    public init(for error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure.status
        case let error as OpeningError:
            self = switch error.code {
            case .notFound: .inputNotFound
            case .badData, .unsupported, .forbidden, .io: .badData
            case .unavailable: .serviceUnavailable
            }
        case let error as TTSError:
            self = error.code == .libraryUnavailable ? .serviceUnavailable : .internalError
        case let error as PiperError:
            self = switch error.code {
            case .unknownVoice: .usage
            case .badVoice, .workerFailed: .badData
            case .workerUnavailable: .serviceUnavailable
            }
        case let error as AudioSinkError:
            self = switch error.code {
            case .serverUnavailable, .serverLost: .audioServerUnavailable
            case .cannotCreate: .cannotCreateOutput
            case .writeFailed: .outputIOError
            case .unsupportedFormat: .internalError
            }
        case let error as AudioDecoderError:
            self = error.code == .sourceUnreachable ? .serviceUnavailable : .badData
        case let error as EPUBWriteError:
            self = switch error.code {
            case .unreadableSource: .badData
            case .invalidNarration: .internalError
            case .unwritableOutput: .outputIOError
            }
        case is AudioNavigatorError, is EPUBError, is XMLError, is ResourceError:
            self = .badData
        default:
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
