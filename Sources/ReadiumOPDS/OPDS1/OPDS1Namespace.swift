// SPDX-License-Identifier: GPL-3.0-or-later
/// The namespaces of OPDS 1 feeds.
enum OPDS1Namespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let opds = "http://opds-spec.org/2010/catalog"
    static let openSearch = "http://a9.com/-/spec/opensearch/1.1/"
    static let thread = "http://purl.org/syndication/thread/1.0"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let dcterms = "http://purl.org/dc/terms/"
    static let schema = "http://schema.org/"
    static let opf = "http://www.idpf.org/2007/opf"
}
