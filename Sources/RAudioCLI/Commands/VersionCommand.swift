import ArgumentParser
import RAudioEngine

/// `raudio version`: the raudio version and the C libraries it is linked against.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print raudio's version and the versions of the C libraries it uses."
    )

    func run() {
        print("raudio \(RAudioVersion.current)")
        for library in LinkedLibraries.versions() {
            print("\(library.name) \(library.version)")
        }
    }
}
