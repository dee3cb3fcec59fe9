/// Errors of the PNG renderer: fonts FreeType rejects, canvases cairo cannot make, images libpng
/// cannot write or read, sizes that cannot be drawn.
package enum RasterRenderError: Error, Equatable, CustomStringConvertible, Sendable {
    /// FreeType rejected a call (`file` is the font file, or "" for library calls).
    case freeType(code: Int, function: String, file: String)
    /// cairo could not make a canvas; `status` is its own message.
    case cairo(function: String, status: String)
    /// libpng's simplified API failed; `message` is its own.
    case png(function: String, message: String)
    /// The image would be empty or larger than the renderer accepts.
    case invalidImageSize(width: Int, height: Int, reason: String)
    /// The rows asked for are not rows of the feed.
    case rowsOutOfRange(requested: Range<Int>, rowCount: Int)

    package var description: String {
        switch self {
        case .freeType(let code, let function, let file):
            return "FreeType error \(code) in \(function)\(file.isEmpty ? "" : " for \(file)")"
        case .cairo(let function, let status):
            return "cairo: \(function) failed: \(status)"
        case .png(let function, let message):
            return "libpng: \(function) failed: \(message)"
        case .invalidImageSize(let width, let height, let reason):
            return "cannot render a \(width) × \(height) px image: \(reason)"
        case .rowsOutOfRange(let requested, let rowCount):
            return "rows \(requested.lowerBound):\(requested.upperBound) are outside the feed's \(rowCount) rows"
        }
    }
}
