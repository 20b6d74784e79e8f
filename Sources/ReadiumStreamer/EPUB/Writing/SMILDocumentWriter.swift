// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The SMIL 3.0 document of one narrated content document, as EPUB 3 Media Overlays 3.3 describes it: a
/// `seq` with `epub:textref` on the document, a `par` per clip (`text` on its fragment, `audio` with its clip).
enum SMILDocumentWriter {
    struct Par {
        var textSource: String
        var begin: Double
        var end: Double
        /// Its own audio file and that file's length, when not the document's.
        var audioSource: String? = nil
        var audioDuration: Double? = nil
    }

    /// The SMIL of `pars` over one audio file of `duration` seconds (its decoded length): no clock value is
    /// written past it, so that the last clip ends at the file's end exactly, not a rounding after it (a
    /// reading system would clamp the clip and say so).
    static func document(textReference: String, audioSource: String, pars: [Par], duration: Double) -> String {
        var smil = """
            <?xml version="1.0" encoding="UTF-8"?>
            <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
              <body>
                <seq id="seq1" epub:textref="\(XHTMLNarrationMarker.escape(textReference))">

            """
        let audio = XHTMLNarrationMarker.escape(audioSource)
        for (index, par) in pars.enumerated() {
            smil += "      <par id=\"par\(index + 1)\"><text src=\"\(XHTMLNarrationMarker.escape(par.textSource))\"/>"
            let source = par.audioSource.map(XHTMLNarrationMarker.escape) ?? audio
            let limit = par.audioDuration ?? duration
            smil += "<audio src=\"\(source)\" clipBegin=\"\(clockValue(par.begin, notAfter: limit))\" clipEnd=\"\(clockValue(par.end, notAfter: limit))\"/></par>\n"
        }
        smil += "    </seq>\n  </body>\n</smil>\n"
        return smil
    }

    /// A SMIL full clock value with milliseconds (`0:01:02.345`), as `media:duration` takes it too: the nearest
    /// millisecond, or the one below when that would be after `limit`.
    static func clockValue(_ seconds: Double, notAfter limit: Double = .infinity) -> String {
        let value = min(max(seconds, 0), max(limit, 0))
        var milliseconds = Int((value * 1000).rounded())
        if Double(milliseconds) / 1000 > limit { milliseconds = Int((value * 1000).rounded(.down)) }
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let wholeSeconds = milliseconds / 1000 % 60
        return "\(hours):" + pad(minutes, 2) + ":" + pad(wholeSeconds, 2) + "." + pad(milliseconds % 1000, 3)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
