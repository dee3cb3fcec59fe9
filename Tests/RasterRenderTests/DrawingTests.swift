import CellLayout
import Foundation
@testable import RasterRender
import StatusModel
import TableLayout
import TextMeasure
import XCTest
import _LayoutTestSupport

/// What the renderer draws for the layout's named images: icons, badges, emoticons, and glyphs
/// from every face of the cascade. Each test fails on a renderer that draws boxes instead.
final class DrawingTests: XCTestCase {
    private let white = RGBA(rgb: 0xFFFFFF)

    /// A shape, not a box: anti-aliased edges (several distinct colours) and ink that does not
    /// fill its own bounding box.
    private func assertDrawnShape(
        _ px: [(x: Int, y: Int, c: RGBA)], background: RGBA, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let distinct = Set(px.map(\.c)).count
        XCTAssertGreaterThanOrEqual(distinct, 6, "\(what): \(distinct) colours, no anti-aliased shape", file: file, line: line)
        let ink = px.filter { $0.c.distance(to: background) > 60 }
        guard let x0 = ink.map(\.x).min(), let x1 = ink.map(\.x).max(), let y0 = ink.map(\.y).min(), let y1 = ink.map(\.y).max()
        else { return XCTFail("\(what): no ink", file: file, line: line) }
        let fillShare = Double(ink.count) / Double((x1 - x0 + 1) * (y1 - y0 + 1))
        XCTAssertLessThan(fillShare, 0.9, "\(what): the ink fills its bounding box (a square)", file: file, line: line)
    }

    private func oneRow(_ edit: (inout Status) -> Void, scale: Double = 2) throws -> RenderedRows {
        var statuses = try Shared.demoStatuses()
        edit(&statuses[0])
        return try RenderedRows(Array(statuses.prefix(1)), rows: 0..<1, scale: scale)
    }

    // MARK: toolbar

    func testToolbarIconsAreThreeDistinctAntialiasedShapes() throws {
        let r = try oneRow { _ in }
        let bar = try XCTUnwrap(r.cells[0].toolbar)
        XCTAssertEqual(bar.buttons.map(\.kind), [.repost, .comment, .like])
        var masks: [[Bool]] = []
        for b in bar.buttons {
            let px = r.pixels(b.icon, row: 0)
            assertDrawnShape(px, background: white, "toolbar icon \(b.kind)")
            masks.append(px.map { $0.c.distance(to: white) > 60 })
        }
        // The three icons differ from each other (a box drawn three times would not).
        for i in 0..<3 {
            for j in (i + 1)..<3 where masks[i].count == masks[j].count {
                let differing = zip(masks[i], masks[j]).filter { $0 != $1 }.count
                XCTAssertGreaterThan(
                    Double(differing) / Double(masks[i].count), 0.1, "\(bar.buttons[i].kind) and \(bar.buttons[j].kind) look alike")
            }
        }
    }

    func testLikedStatusFillsTheLikeIcon() throws {
        let plain = try oneRow { $0.liked = false }
        let liked = try oneRow { $0.liked = true }
        let b = try XCTUnwrap(liked.cells[0].toolbar?.buttons.last)
        let ink = RGBA(rgb: liked.palette.color(.cellToolbarLiked))
        let count = { (r: RenderedRows) in r.pixels(b.icon, row: 0).filter { $0.c.distance(to: ink) < 30 }.count }
        XCTAssertGreaterThan(count(liked), 2 * max(1, count(plain)), "the liked icon is not filled in the liked colour")
    }

    // MARK: badges

    func testVerifiedClubAndMemberBadgesAreDrawnShapes() throws {
        // verified_type 0: the personal badge over the avatar; 1...7: the organization icon after
        // the name; mbrank > 0: the member crown after the name.
        let person = try oneRow {
            $0.user.verifiedType = 0
            $0.user.mbrank = 3
        }
        let cell = person.cells[0]
        let avatarBadge = try XCTUnwrap(cell.avatarBadge)
        XCTAssertEqual(avatarBadge.name, "avatar-verified")
        assertDrawnShape(person.pixels(avatarBadge.frame, row: 0), background: RenderColors.placeholder, "avatar-verified")
        // The white "V" shows inside the orange disc.
        let whiteInside = person.pixels(avatarBadge.frame, row: 0).filter { $0.c.distance(to: white) < 12 }.count
        XCTAssertGreaterThan(whiteInside, 4, "no white mark in the verified badge")
        let crown = try XCTUnwrap(cell.name.attachments.first { $0.name.hasPrefix("member") })
        assertDrawnShape(person.pixels(crown.frame, row: 0), background: white, crown.name)

        let organization = try oneRow {
            $0.user.verifiedType = 3
            $0.user.mbrank = 0
        }
        let v = try XCTUnwrap(organization.cells[0].name.attachments.first { $0.name.hasPrefix("verified") })
        let px = organization.pixels(v.frame, row: 0)
        assertDrawnShape(px, background: white, v.name)
        XCTAssertTrue(px.contains { $0.c.distance(to: IconColors.verifiedOrganization) < 12 }, "the organization badge is not blue")

        let club = try oneRow { $0.user.verifiedType = 220 }
        let c = try XCTUnwrap(club.cells[0].avatarBadge)
        XCTAssertEqual(c.name, "avatar-club")
        assertDrawnShape(club.pixels(c.frame, row: 0), background: RenderColors.placeholder, "avatar-club")
    }

    func testPictureBadgesCarryTheirLabels() throws {
        let r = try oneRow {
            $0.retweetedStatus = nil
            $0.pageInfo = nil
            $0.pictures = [
                Picture(id: "long", url: "", width: 200, height: 900),
                Picture(id: "gif", url: "", width: 300, height: 300, kind: .gif),
            ]
        }
        let grid = try XCTUnwrap(r.cells[0].pictures)
        let badges = grid.pictures.compactMap(\.badge)
        XCTAssertEqual(badges.map(\.name), ["long", "gif"])
        var labels: [[Bool]] = []
        for b in badges {
            // White label ink on the badge colour.
            let px = r.pixels(b.frame, row: 0)
            let label = px.filter { $0.c.luma > 200 && $0.c.distance(to: RenderColors.placeholder) > 30 }
            XCTAssertGreaterThan(label.count, 12, "the \(b.name) badge has no label pixels")
            labels.append(px.map { $0.c.luma > 200 })
        }
        if labels.count == 2, labels[0].count == labels[1].count {
            XCTAssertNotEqual(labels[0], labels[1], "长图 and GIF draw the same label")
        }
    }

    func testVideoPlayMarkIsAntialiasedAtEveryScale() throws {
        for scale in [1.0, 2.0, 3.0] {
            let r = try oneRow({
                $0.retweetedStatus = nil
                $0.pictures = []
                $0.pageInfo = PageInfo(title: "视频", objectType: "video", pictureURL: "x")
            }, scale: scale)
            let card = try XCTUnwrap(r.cells[0].card)
            let play = try XCTUnwrap(card.badge)
            XCTAssertEqual(play.name, "video-play")
            let px = r.pixels(play.frame, row: 0)
            XCTAssertGreaterThanOrEqual(Set(px.map(\.c)).count, 8, "@\(scale)x: the play mark has hard edges")
            XCTAssertTrue(px.contains { $0.c == white }, "@\(scale)x: no white triangle")
        }
    }

    // MARK: emoticons

    func testEmoticonDrawsAsAnEmojiNotAYellowSquare() throws {
        let r = try oneRow {
            $0.text = "哇哇哇哇！爱你毛毛[爱你]！可爱死了啊！"
            $0.retweetedStatus = nil
        }
        let text = try XCTUnwrap(r.cells[0].text)
        let a = try XCTUnwrap(text.attachments.first)
        XCTAssertEqual(a.name, "d_aini.png")
        let px = r.pixels(a.frame, row: 0)
        let oldYellow = RGBA(rgb: 0xFFC82C)
        let yellow = px.filter { $0.c.distance(to: oldYellow) < 16 }.count
        XCTAssertLessThan(Double(yellow) / Double(px.count), 0.5, "the emoticon is a yellow square")
        XCTAssertGreaterThan(px.filter { !$0.c.isGray(tolerance: 60) }.count, 30, "the emoticon has no colour")
        XCTAssertGreaterThanOrEqual(Set(px.map(\.c)).count, 20, "the emoticon is not an emoji bitmap")
    }

    func testEmoticonWithoutEmojiDrawsItsNameInARoundedBox() throws {
        let (fonts, _) = try Shared.require()
        let engine = FeedEngine(cellEngine: CellLayoutEngine(
            measurer: TextMeasurer(fonts: fonts, retainGlyphs: true),
            emoticons: EmoticonTable(imageNames: ["[围观群众]": "lxh_weiguan.png"])))
        var status = try Shared.demoStatuses()[0]
        status.text = "路过[围观群众]"
        status.retweetedStatus = nil
        let cell = engine.cell(for: status, options: FeedOptions(width: 375))
        let text = try XCTUnwrap(cell.text)
        let a = try XCTUnwrap(text.attachments.first)
        let image = try FeedRenderer(fonts: fonts).render([(cell, 0)], width: 375, height: cell.height, scale: 3, style: .weibo)
        let x0 = Int(a.frame.minX * 3), x1 = Int(a.frame.maxX * 3), y0 = Int(a.frame.minY * 3), y1 = Int(a.frame.maxY * 3)
        let px = (y0..<y1).flatMap { y in (x0..<x1).map { image.pixel(x: $0, y: y) } }
        // The box's fill, and label ink darker than it inside.
        XCTAssertGreaterThan(px.filter { $0.distance(to: RenderColors.emoticonBox) < 8 }.count, px.count / 4, "no rounded box")
        XCTAssertGreaterThan(px.filter { $0.distance(to: RenderColors.emoticonInk) < 40 }.count, 20, "no label in the box")
        // Rounded: the corner pixel keeps the background.
        XCTAssertEqual(image.pixel(x: x0, y: y0), white)
        XCTAssertEqual(EmoticonEmoji.boxLabel(forCode: "[围观群众]"), "围")
        XCTAssertEqual(EmoticonEmoji.boxLabel(forCode: "[]"), "?")
    }

    /// Every image of the built-in group has an emoji, and the colour face maps it.
    func testEveryDefaultEmoticonHasAnEmojiInTheFace() throws {
        let (fonts, _) = try Shared.require()
        let rasterizer = try GlyphRasterizer(fonts: fonts)
        let images = Set(EmoticonTable.builtIn.imageNames.values)
        XCTAssertGreaterThan(images.count, 100)
        for image in images.sorted() {
            let scalar = try XCTUnwrap(EmoticonEmoji.emoji(forImage: image), "\(image) has no emoji")
            let glyph = try rasterizer.nominalGlyph(slot: .emoji, scalar: scalar)
            XCTAssertNotEqual(glyph, 0, "\(image): U+\(String(scalar, radix: 16, uppercase: true)) is not in the emoji face")
            let bitmap = try rasterizer.glyph(slot: .emoji, glyph: glyph, pixelSize: 30, phase: 0)
            XCTAssertTrue(bitmap.isColor && bitmap.width > 0, "\(image): no colour bitmap")
        }
    }

    // MARK: glyphs from every face

    /// U+2727 ✧ is in DejaVu Sans only: it is drawn from the fallback face, as a star (the corners
    /// of its ink box are empty), not as a .notdef box (ink along the whole edge).
    func testFallbackFaceGlyphIsDrawnNotTofu() throws {
        let r = try oneRow {
            $0.text = "(・ω< )✧"
            $0.retweetedStatus = nil
        }
        let text = try XCTUnwrap(r.cells[0].text)
        let p = text.prepared
        let offset = Array(text.string.utf16).firstIndex(of: 0x2727)!
        let c = p.cluster(containing: offset)
        XCTAssertEqual(p.font(ofCluster: c).slot, .fallback, "✧ was not measured in DejaVu Sans")
        let glyphs = try XCTUnwrap(p.glyphs)
        let ids = zip(glyphs.cluster, glyphs.glyphID).filter { Int($0.0) == c }.map(\.1)
        XCTAssertFalse(ids.isEmpty)
        XCTAssertFalse(ids.contains(0), "✧ has no glyph")
        let xs = text.layout.clusterPositions(onLine: 0, of: p)
        let line = text.layout.lines[0]
        let k = c - line.clusters.lowerBound
        let cellRect = Rect(x: text.frame.minX + xs[k], y: text.frame.minY + line.top, width: xs[k + 1] - xs[k], height: line.ascent + line.descent)
        let ink = r.pixels(cellRect, row: 0).filter { $0.c.luma < 160 }
        let x0 = try XCTUnwrap(ink.map(\.x).min()), x1 = ink.map(\.x).max()!, y0 = ink.map(\.y).min()!, y1 = ink.map(\.y).max()!
        let cw = max(1, (x1 - x0 + 1) / 5), chh = max(1, (y1 - y0 + 1) / 5)
        for (cx, cy) in [(x0, y0), (x1 - cw + 1, y0), (x0, y1 - chh + 1), (x1 - cw + 1, y1 - chh + 1)] {
            let corner = ink.filter { $0.x >= cx && $0.x < cx + cw && $0.y >= cy && $0.y < cy + chh }
            XCTAssertTrue(corner.isEmpty, "ink in a corner of ✧'s box at (\(cx), \(cy)): a .notdef box?")
        }
    }

    /// No text of the Weibo corpus (every status of the eight files) draws a missing glyph: every glyph of every cluster is a real one,
    /// except for code points no face of the cascade maps.
    func testCorpusTextsHaveNoMissingGlyphs() throws {
        guard let files = TestPaths.weiboCorpusFiles else { throw XCTSkip(TestPaths.sharedCorpusSkipMessage) }
        let (fonts, engine) = try Shared.require()
        let rasterizer = try GlyphRasterizer(fonts: fonts)
        var texts = 0, unmapped: Set<UInt32> = []
        for file in files {
            let name = file.lastPathComponent
            let statuses = try FeedLoader.load(contentsOf: file).feed.statuses
            for (i, status) in statuses.enumerated() {
                let cell = engine.cell(for: status, options: FeedOptions(width: 375))
                var boxes: [TextBox] = [cell.name, cell.time]
                boxes += [cell.source, cell.text, cell.retweet?.text, cell.card?.text, cell.retweet?.card?.text, cell.tag?.label,
                          cell.titleBar?.label].compactMap { $0 }
                for box in boxes {
                    let p = box.prepared
                    guard let glyphs = p.glyphs else { continue }
                    texts += 1
                    let units = Array(box.string.utf16)
                    for (g, id) in glyphs.glyphID.enumerated() where id == 0 {
                        let c = Int(glyphs.cluster[g])
                        if p.isAttachment(c) { continue }
                        let r = p.utf16Range(ofCluster: c)
                        let piece = String(decoding: units[r], as: UTF16.self)
                        let scalars = piece.unicodeScalars.map(\.value)
                        // Allowed only when no face maps the cluster's first code point.
                        let mapped = try [FontSlot.primary, .bold, .emoji, .fallback].contains {
                            try rasterizer.nominalGlyph(slot: $0, scalar: scalars[0]) != 0
                        }
                        if mapped {
                            XCTFail("\(name) status \(i): \(piece) (\(scalars.map { String($0, radix: 16) })) draws .notdef from \(p.font(ofCluster: c).slot)")
                        } else {
                            unmapped.insert(scalars[0])
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(texts, 600)
        if !unmapped.isEmpty { print("code points no face maps: \(unmapped.sorted().map { String($0, radix: 16) })") }
    }

    /// A character no face maps (U+F8FF, seen in the corpus) draws as a box with its code point
    /// written in it, not as an empty .notdef box.
    func testUnmappedCharacterDrawsAHexBox() throws {
        let r = try oneRow({
            $0.text = "A\u{F8FF}B"
            $0.retweetedStatus = nil
        }, scale: 3)
        let text = try XCTUnwrap(r.cells[0].text)
        let p = text.prepared
        let c = p.cluster(containing: 1)
        let glyphs = try XCTUnwrap(p.glyphs)
        XCTAssertEqual(zip(glyphs.cluster, glyphs.glyphID).first { Int($0.0) == c }?.1, 0)
        let xs = text.layout.clusterPositions(onLine: 0, of: p)
        let line = text.layout.lines[0]
        let k = c - line.clusters.lowerBound
        let box = Rect(x: text.frame.minX + xs[k], y: text.frame.minY + line.top, width: xs[k + 1] - xs[k], height: line.ascent + line.descent)
        let ink = r.pixels(box, row: 0).filter { $0.c.luma < 200 }
        let x0 = try XCTUnwrap(ink.map(\.x).min()), x1 = ink.map(\.x).max()!, y0 = ink.map(\.y).min()!, y1 = ink.map(\.y).max()!
        // Digits inside the outline: ink well away from its edges.
        let inner = ink.filter { $0.x > x0 + 3 && $0.x < x1 - 3 && $0.y > y0 + 3 && $0.y < y1 - 3 }
        XCTAssertGreaterThan(inner.count, 15, "the box is empty")
        // Two rows of digits: ink in the upper and in the lower half of the inside.
        let mid = (y0 + y1) / 2
        XCTAssertTrue(inner.contains { $0.y < mid - 1 } && inner.contains { $0.y > mid + 1 }, "not two rows of digits")
    }

    // MARK: determinism

    func testSameRowsGiveIdenticalPNGBytesOnAnyThread() throws {
        let (fonts, engine) = try Shared.require()
        let statuses = try Shared.demoStatuses()
        let feed = try engine.layout(statuses, options: FeedOptions(width: 375), retainCells: true)
        let cells = feed.cells!
        let renderer = FeedRenderer(fonts: fonts)
        let reference = try PNGCodec.encode(try renderer.render(feed: feed, rows: 0..<4) { cells[$0] })
        let results = Locked([Data?](repeating: nil, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let png = try? PNGCodec.encode(try renderer.render(feed: feed, rows: 0..<4) { cells[$0] })
            results.withLock { $0[i] = png }
        }
        for (i, png) in results.withLock({ $0 }).enumerated() {
            XCTAssertEqual(png, reference, "render \(i) on another thread differs")
        }
    }
}

/// A value behind a mutex, for collecting results of concurrent work in tests.
private final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
