/// Errors of the text engine: fonts that cannot be found, read or trusted.
public enum TextMeasureError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The font manifest (fonts.json) is missing.
    case manifestMissing(path: String)
    /// The font manifest cannot be read as the expected JSON.
    case manifestInvalid(path: String, reason: String)
    /// A font named by the manifest is not in the fonts directory.
    case fontMissing(file: String, role: String)
    /// A font file exists but cannot be read.
    case fontUnreadable(file: String)
    /// A font file is not a usable font (or not the face the manifest names).
    case fontInvalid(file: String, reason: String)
    /// FreeType rejected a call.
    case freeType(code: Int, function: String, file: String)

    /// The command that installs and checks the pinned fonts.
    package static let fixCommand = "scripts/setup.sh (or `make setup`) from the package root"

    public var description: String {
        switch self {
        case .manifestMissing(let path):
            return "font manifest \(path) not found; load the fonts with FontSet.load(directory:) or FontSet.load(manifest:), "
                + "or set $FEEDLAYOUT_FONTS, naming a directory that holds fonts.json and the pinned fonts "
                + "(`scripts/setup.sh --fonts-to DIR` puts them in DIR)"
        case .manifestInvalid(let path, let reason):
            return "font manifest \(path) is invalid: \(reason)"
        case .fontMissing(let file, let role):
            return "font \(file) (role \(role)) is missing; run \(Self.fixCommand) to install it"
        case .fontUnreadable(let file):
            return "font \(file) cannot be read; run \(Self.fixCommand) to reinstall it"
        case .fontInvalid(let file, let reason):
            return "font \(file) is not the pinned font (\(reason)); run \(Self.fixCommand) to reinstall it"
        case .freeType(let code, let function, let file):
            return "FreeType error \(code) in \(function) for \(file); run \(Self.fixCommand) to reinstall the fonts"
        }
    }
}
