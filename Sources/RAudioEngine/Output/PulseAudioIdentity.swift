// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio

/// How raudio and what it plays present themselves to a Linux desktop (volume mixers, media controls).
///
/// The application properties go on the PulseAudio context, the media properties on each stream.
public struct PulseAudioIdentity: Sendable, Equatable {
    /// `application.name`.
    public var applicationName = "raudio"
    /// `application.id`.
    public var applicationID = "raudio"
    /// `application.icon_name` and `media.icon_name`: a freedesktop icon name.
    public var iconName = "audio-x-generic"
    /// `media.role`: PulseAudio documents "video", "music", "game", "event", "phone", "animation",
    /// "production", "a11y", "test"; none names audiobooks or speech, and "music" is what players use.
    public var mediaRole = "music"
    /// `media.title` and `media.name` (the stream's name): the publication's title.
    public var title: String
    /// `media.artist`: the publication's author or narrator, when known.
    public var artist: String?

    public init(title: String, artist: String? = nil) {
        self.title = title
        self.artist = artist
    }

    /// A new proplist with the application properties; the caller frees it with `pa_proplist_free`.
    func makeContextProperties() -> OpaquePointer {
        let list = pa_proplist_new()!
        pa_proplist_sets(list, PA_PROP_APPLICATION_NAME, applicationName)
        pa_proplist_sets(list, PA_PROP_APPLICATION_ID, applicationID)
        pa_proplist_sets(list, PA_PROP_APPLICATION_ICON_NAME, iconName)
        pa_proplist_sets(list, PA_PROP_APPLICATION_VERSION, RAudioVersion.current)
        return list
    }

    /// A new proplist with the media properties; the caller frees it with `pa_proplist_free`.
    func makeStreamProperties() -> OpaquePointer {
        let list = pa_proplist_new()!
        pa_proplist_sets(list, PA_PROP_MEDIA_NAME, title)
        pa_proplist_sets(list, PA_PROP_MEDIA_TITLE, title)
        if let artist { pa_proplist_sets(list, PA_PROP_MEDIA_ARTIST, artist) }
        pa_proplist_sets(list, PA_PROP_MEDIA_ROLE, mediaRole)
        pa_proplist_sets(list, PA_PROP_MEDIA_ICON_NAME, iconName)
        return list
    }
}
