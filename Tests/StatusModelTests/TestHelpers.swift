import Foundation
import XCTest
import _LayoutTestSupport

@testable import StatusModel

/// A minimal valid Weibo status dictionary, overridable per key.
func weiboStatus(_ id: Int64, _ overrides: [String: Any] = [:]) -> [String: Any] {
    var d: [String: Any] = [
        "id": id, "created_at": "Wed Sep 09 10:11:34 +0800 2015", "text": "第\(id)条",
        "source": "<a href=\"x\">微博 weibo.com</a>", "user": ["id": 7, "screen_name": "测试用户"],
    ]
    for (k, v) in overrides { d[k] = v }
    return d
}

func jsonData(_ obj: Any) -> Data {
    // Test inputs are always valid JSON objects.
    try! JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
}

/// Loads in-memory JSON and returns the error, failing the test when none is thrown.
func loadError(_ data: Data, name: String = "t.json", options: LoadOptions = LoadOptions(), file: StaticString = #filePath, line: UInt = #line)
    -> StatusModelError?
{
    do {
        _ = try FeedLoader.load(data: data, fileName: name, options: options)
        XCTFail("expected an error", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("statusmodel-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The first `count` statuses of `FeedGenerator(seed:)`.
func generated(_ seed: UInt64, _ count: Int) -> [Status] {
    var g = FeedGenerator(seed: seed)
    return g.statuses(count: count)
}
