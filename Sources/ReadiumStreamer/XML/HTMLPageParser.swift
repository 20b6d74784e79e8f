// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libxml2's HTML parser, for HTML pages that are not XML (`<html lang=en>`, `<p>` and `<li>` left open,
/// `<td>` without its row's end): it reads them as a browser does, and writes the tree as XML that
/// `XMLDocument` then parses. Most web pages, and Project Gutenberg's HTML books, are such pages.
///
/// libxml2 is the library FoundationXML parses XML with, so it is in every raudio process already; its
/// HTML functions are looked up with `dlsym` (Swift imports no libxml2 module), on first use. Any thread:
/// each call parses its own document. Network access and DTD loading are off (`HTML_PARSE_NONET`).
enum HTMLPageParser {
    /// `data`, an HTML page, as a well-formed XML document (UTF-8, no XML declaration, an `html` root); nil
    /// when libxml2 cannot be loaded or finds no document in it.
    static func xml(fromHTML data: Data) -> Data? {
        guard let functions = Functions.shared, !data.isEmpty, data.count <= Int(Int32.max) else { return nil }
        let document = data.withUnsafeBytes { bytes in
            functions.readMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, nil, Functions.parseOptions)
        }
        guard let document else { return nil }
        defer { functions.freeDoc(document) }
        guard let buffer = functions.bufferCreate() else { return nil }
        defer { functions.bufferFree(buffer) }
        guard let save = functions.saveToBuffer(buffer, "UTF-8", Functions.saveOptions) else { return nil }
        let written = functions.saveDoc(save, document)
        guard functions.saveClose(save) >= 0, written >= 0, let content = functions.bufferContent(buffer) else { return nil }
        let length = Int(functions.bufferLength(buffer))
        guard length > 0 else { return nil }
        // Control characters XML refuses (HTML keeps them) would stop the XML parse where they stand.
        var xml = [UInt8](UnsafeBufferPointer(start: content, count: length))
        for index in xml.indices where xml[index] < 0x20 && xml[index] != 0x09 && xml[index] != 0x0A && xml[index] != 0x0D {
            xml[index] = 0x20
        }
        return Data(xml)
    }

    /// The libxml2 functions used, by their C names.
    private struct Functions: @unchecked Sendable {
        static let shared = load()

        /// `HTML_PARSE_RECOVER | HTML_PARSE_NODEFDTD | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET`.
        static let parseOptions: Int32 = 1 << 0 | 1 << 2 | 1 << 5 | 1 << 6 | 1 << 11
        /// `XML_SAVE_NO_DECL | XML_SAVE_NO_XHTML | XML_SAVE_AS_XML`: XML, even of an HTML document, and without
        /// the XHTML rules an XHTML DOCTYPE would bring (an `xmlns` written twice, `id`s copied from `name`s).
        static let saveOptions: Int32 = 1 << 1 | 1 << 3 | 1 << 5

        let readMemory: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> OpaquePointer?
        let freeDoc: @convention(c) (OpaquePointer?) -> Void
        let bufferCreate: @convention(c) () -> OpaquePointer?
        let bufferFree: @convention(c) (OpaquePointer?) -> Void
        let bufferContent: @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?
        let bufferLength: @convention(c) (OpaquePointer?) -> Int32
        let saveToBuffer: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> OpaquePointer?
        let saveDoc: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int
        let saveClose: @convention(c) (OpaquePointer?) -> Int32

        private static func load() -> Functions? {
            let names: [String] = ["libxml2.so.2", "libxml2.so"]
            guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else { return nil }
            func symbol<T>(_ name: String, as type: T.Type) -> T? {
                dlsym(handle, name).map { unsafeBitCast($0, to: type) }
            }
            guard let readMemory = symbol("htmlReadMemory", as: (@convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> OpaquePointer?).self),
                  let freeDoc = symbol("xmlFreeDoc", as: (@convention(c) (OpaquePointer?) -> Void).self),
                  let bufferCreate = symbol("xmlBufferCreate", as: (@convention(c) () -> OpaquePointer?).self),
                  let bufferFree = symbol("xmlBufferFree", as: (@convention(c) (OpaquePointer?) -> Void).self),
                  let bufferContent = symbol("xmlBufferContent", as: (@convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?).self),
                  let bufferLength = symbol("xmlBufferLength", as: (@convention(c) (OpaquePointer?) -> Int32).self),
                  let saveToBuffer = symbol("xmlSaveToBuffer", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> OpaquePointer?).self),
                  let saveDoc = symbol("xmlSaveDoc", as: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Int).self),
                  let saveClose = symbol("xmlSaveClose", as: (@convention(c) (OpaquePointer?) -> Int32).self)
            else { return nil }
            return Functions(readMemory: readMemory, freeDoc: freeDoc, bufferCreate: bufferCreate, bufferFree: bufferFree,
                             bufferContent: bufferContent, bufferLength: bufferLength, saveToBuffer: saveToBuffer, saveDoc: saveDoc,
                             saveClose: saveClose)
        }
    }
}
