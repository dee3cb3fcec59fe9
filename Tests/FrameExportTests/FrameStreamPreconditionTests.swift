import CellLayout
import StatusModel
import TableLayout
import Testing
import _LayoutTestSupport

@testable import FrameExport

/// A frame stream writes cells laid out at its own width and scale only: a cell of another
/// layout stops the program (its frames would be written under the stream's width, on another
/// pixel grid). Exit tests: each append runs in a child process, which must fail.
@Suite struct FrameStreamPreconditionTests {
    private static func cell(width: Double, scale: Double) -> CellGeometry {
        let engine = CellLayoutEngine(measurer: FixedAdvanceMeasurer())
        let status = Status(id: 7, source: "app", text: "text", user: User(id: 2, name: "name"))
        return engine.layout(status, width: width, style: .weibo, scale: scale)
    }

    private static func written(_ cells: [CellGeometry], width: Double, scale: Double) throws -> [UInt8] {
        let header = FrameExportHeader(generatorVersion: "test", fonts: [])
        var stream = try FrameStream(options: FeedOptions(width: width, scale: scale), header: header, format: .jsonl)
        var out: [UInt8] = []
        stream.begin(into: &out)
        stream.append(cells, into: &out)
        stream.finish(into: &out)
        return out
    }

    @Test func cellsOfTheStreamsLayoutAreWritten() throws {
        #expect(try !Self.written([Self.cell(width: 375, scale: 2)], width: 375, scale: 2).isEmpty)
    }

    @Test func cellsOfAnotherWidthOrScaleStop() async {
        await #expect(processExitsWith: .failure) {
            _ = try Self.written([Self.cell(width: 320, scale: 2)], width: 375, scale: 2)
        }
        await #expect(processExitsWith: .failure) {
            _ = try Self.written([Self.cell(width: 375, scale: 3)], width: 375, scale: 2)
        }
        await #expect(processExitsWith: .failure) {
            var rows = EncodedRows(scale: 2)
            rows.append(Self.cell(width: 375, scale: 1))
        }
    }
}
