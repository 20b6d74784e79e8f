/// The version of raudio itself.
public enum RAudioVersion {
    public static let current = "0.1.0"
}
