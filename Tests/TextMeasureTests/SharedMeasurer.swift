import Foundation
import TextMeasure
import XCTest
import _LayoutTestSupport

/// One real measurer per test process: loading the cascade reads ~50 MB of fonts.
enum Shared {
    static let fonts: FontSet? = try? FontSet.load(directory: TestPaths.fonts)
    static let measurer: TextMeasurer? = fonts.map { TextMeasurer(fonts: $0) }

    static func requireMeasurer() throws -> TextMeasurer {
        guard let measurer else {
            throw XCTSkip("fonts are not installed in Fonts/: run scripts/setup.sh (make test does it)")
        }
        return measurer
    }

    /// Texts of the shared Weibo corpus (statuses and retweets), or nil when it is absent.
    static let corpusTexts: [String]? = {
        guard let files = TestPaths.weiboCorpusFiles else { return nil }
        var texts: [String] = []
        for url in files {
            guard let data = try? Data(contentsOf: url),
                let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let statuses = root["statuses"] as? [[String: Any]]
            else { continue }
            for s in statuses {
                if let t = s["text"] as? String { texts.append(t) }
                if let r = s["retweeted_status"] as? [String: Any], let t = r["text"] as? String { texts.append(t) }
            }
        }
        return texts
    }()
}
