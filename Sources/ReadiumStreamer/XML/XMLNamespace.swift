// SPDX-License-Identifier: GPL-3.0-or-later
/// Namespace URIs of the vocabularies found in EPUB publications.
public enum XMLNamespace {
    public static let xml = "http://www.w3.org/XML/1998/namespace"
    public static let xhtml = "http://www.w3.org/1999/xhtml"
    /// The `epub:` prefix of EPUB 3 content documents (`epub:type`).
    public static let ops = "http://www.idpf.org/2007/ops"
    /// The package document (OPF).
    public static let opf = "http://www.idpf.org/2007/opf"
    public static let dc = "http://purl.org/dc/elements/1.1/"
    public static let dcterms = "http://purl.org/dc/terms/"
    /// The OCF `META-INF/container.xml`.
    public static let container = "urn:oasis:names:tc:opendocument:xmlns:container"
    /// The EPUB 2 navigation control file (NCX).
    public static let ncx = "http://www.daisy.org/z3986/2005/ncx/"
    public static let smil = "http://www.w3.org/ns/SMIL"
    public static let xmlEncryption = "http://www.w3.org/2001/04/xmlenc#"
    public static let xmlSignature = "http://www.w3.org/2000/09/xmldsig#"
    public static let svg = "http://www.w3.org/2000/svg"
    public static let mathML = "http://www.w3.org/1998/Math/MathML"
    public static let xlink = "http://www.w3.org/1999/xlink"
    /// SSML attributes in EPUB 3 content documents (`ssml:ph`, `ssml:alphabet`).
    public static let ssml = "http://www.w3.org/2001/10/synthesis"
}
