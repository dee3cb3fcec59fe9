// Deterministic synthetic feeds for tests and benchmarks of any size.
//
// Same seed => same statuses, on every platform and run: the only randomness is our own
// SplitMix64, and every choice is made with integer arithmetic on its output (no Double
// rounding, no Swift `Hasher`, no `SystemRandomNumberGenerator`, no `Dictionary` iteration order).
// The content pools are invented phrases in the register of a Chinese microblog.
import FeedLayoutSupport
import Foundation

/// Produces an endless, reproducible stream of realistic statuses.
///
/// Thread-safety: a value type; give each thread its own generator.
public struct FeedGenerator: Sendable {
    private var rng: SplitMix64
    private var nextID: Int64
    private var clock: Int64
    private var produced = 0
    /// Pool indices of the short URLs and topics the last `makeText` inserted (searching the text
    /// afterwards with `String.contains` dominated the generator's run time).
    private var insertedURLs: Set<Int> = []
    private var insertedTopics: Set<Int> = []

    /// - Parameter seed: selects the stream; ids start at 4_000_000_000_000_000 + seed-derived offset.
    public init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        nextID = 4_000_000_000_000_000 + Int64(seed % 1_000_000) * 1_000_000
        clock = 1_700_000_000  // 2023-11-14, walking back in time
    }

    /// The next `count` statuses.
    public mutating func statuses(count: Int) -> [Status] {
        var out: [Status] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(next()) }
        return out
    }

    /// The next status: newest first, ids increasing, 0–9 pictures, ~40 % retweets, cards, tags.
    public mutating func next() -> Status {
        produced += 1
        clock -= Int64(30 + rng.below(3600))
        let id = takeID()
        var s = Status(
            id: id, createdAt: Date(timeIntervalSince1970: TimeInterval(clock)), source: rng.pick(Pools.sources),
            text: "", user: makeUser())
        if rng.chance(40) {
            var r = Status(
                id: takeID(), createdAt: Date(timeIntervalSince1970: TimeInterval(clock - Int64(rng.below(200_000)))),
                source: rng.pick(Pools.sources), text: "", user: makeUser())
            fill(&r, retweet: true)
            s.text = makeText(maxSentences: 2)
            if rng.chance(50) { s.text += "//@\(rng.pick(Pools.names)):\(rng.pick(Pools.phrases))" }
            s.urlEntities = insertedEntities()
            s.topics = insertedTopicList()
            // The loader gives a retweet without its own url_struct / page_info its parent's:
            // generate the same, so write-then-load returns equal statuses.
            if r.urlEntities.isEmpty { r.urlEntities = s.urlEntities }
            s.retweetedStatus = r
        } else {
            fill(&s, retweet: false)
        }
        if rng.chance(5) { s.titleBar = TitleBar(text: rng.pick(["热门", "推荐", "好友圈"]), iconURL: Pools.titleIcon) }
        s.repostsCount = count()
        s.commentsCount = count()
        s.attitudesCount = count()
        s.liked = rng.chance(15)
        return s
    }

    private mutating func takeID() -> Int64 {
        nextID += Int64(1 + rng.below(9))
        return nextID
    }

    private mutating func fill(_ s: inout Status, retweet: Bool) {
        s.text = makeText(maxSentences: retweet ? 5 : 8)
        if rng.chance(45) {
            s.pictures = makePictures(statusID: s.id)
        } else if rng.chance(20) {
            s.pageInfo = makeCard()
        }
        if !retweet && rng.chance(10) { s.tag = makeTag() }
        s.urlEntities = insertedEntities()
        s.topics = insertedTopicList()
        if retweet {
            s.repostsCount = count()
            s.commentsCount = count()
            s.attitudesCount = count()
        }
    }

    private mutating func count() -> Int {
        switch rng.below(20) {
        case 0..<6: 0
        case 6..<14: rng.below(100)
        case 14..<17: rng.below(10_000)
        case 17..<19: 10_000 + rng.below(990_000)
        default: 10_000_000 + rng.below(90_000_000)
        }
    }

    private mutating func makeUser() -> User {
        let n = rng.below(Pools.names.count)
        let name = Pools.names[n]
        let vip = rng.chance(30)
        return User(
            id: 1_000_000_000 + Int64(n) * 7919, name: name, screenName: name, remark: rng.chance(5) ? "老同学" : "",
            avatarURL: "https://tva\(1 + n % 4).example.cn/crop.0.0.180.180/\(n).jpg",
            verifiedType: rng.pick([-1, -1, -1, 0, 2, 3, 220]), mbrank: vip ? 1 + rng.below(7) : 0,
            mbtype: vip ? rng.pick([11, 12, 13]) : 0)
    }

    private mutating func makeText(maxSentences: Int) -> String {
        var parts: [String] = []
        insertedURLs = []
        insertedTopics = []
        let n = 1 + rng.below(maxSentences)
        for _ in 0..<n {
            switch rng.below(12) {
            case 0: parts.append("@\(rng.pick(Pools.names)) ")
            case 1:
                let t = rng.below(Pools.topics.count)
                insertedTopics.insert(t)
                parts.append("#\(Pools.topics[t])#")
            case 2: parts.append(rng.pick(Pools.emoticons))
            case 3: parts.append(rng.pick(Pools.emoji))
            case 4:
                let u = rng.below(Pools.shortURLs.count)
                insertedURLs.insert(u)
                parts.append(" \(Pools.shortURLs[u]) ")
            case 5: parts.append(rng.pick(Pools.latin))
            case 6: parts.append("\n")
            default: parts.append(rng.pick(Pools.phrases))
            }
        }
        if rng.chance(3) {  // an occasional very long post
            for _ in 0..<20 { parts.append(rng.pick(Pools.phrases)) }
        }
        return parts.joined()
    }

    /// URL entities for the short URLs the last `makeText` inserted, in pool order.
    private func insertedEntities() -> [URLEntity] {
        var out: [URLEntity] = []
        for (i, u) in Pools.shortURLs.enumerated() where insertedURLs.contains(i) {
            out.append(URLEntity(
                shortURL: u, title: Pools.urlTitles[i], originalURL: "https://www.example.com/article/\(i)",
                type: i == 3 ? 39 : 0, iconURL: Pools.linkIcon))
        }
        return out
    }

    /// Topics the last `makeText` inserted, in pool order.
    private func insertedTopicList() -> [Topic] {
        Pools.topics.indices.filter { insertedTopics.contains($0) }.map {
            Topic(title: Pools.topics[$0], url: "sinaweibo://searchall?q=\(Pools.topics[$0])")
        }
    }

    private mutating func makePictures(statusID: Int64) -> [Picture] {
        let n = 1 + rng.below(9)
        var ps: [Picture] = []
        for k in 0..<n {
            let kind: Picture.Kind = rng.chance(8) ? .gif : (rng.chance(50) ? .jpeg : .webp)
            var w = 200 + rng.below(1800)
            var h = 200 + rng.below(1800)
            if rng.chance(6) { h = w * (3 + rng.below(5)) }  // long picture
            if rng.chance(5) { (w, h) = (0, 0) }  // size unknown
            let pid = "\(String(statusID, radix: 36))p\(k)"
            ps.append(Picture(
                id: pid, url: "https://wx\(1 + k % 4).example.cn/large/\(pid).jpg", width: w, height: h, kind: kind,
                keepSize: n == 1 && rng.chance(10)))
        }
        return ps
    }

    private mutating func makeCard() -> PageInfo {
        let video = rng.chance(40)
        let c = rng.pick(Pools.cards)
        return PageInfo(
            title: c.0, desc: c.1, tips: rng.chance(30) ? "\(rng.below(50_000))人浏览" : "", type: video ? 11 : 2,
            objectType: video ? "video" : rng.pick(["webpage", "article", "place"]),
            pictureURL: "https://img.example.cn/card/\(rng.below(1000)).jpg",
            typeIconURL: video ? "https://img.example.cn/icon/video.png" : "", hasButton: rng.chance(25),
            pageURL: "https://m.example.cn/p/\(rng.below(1_000_000))", pageID: "1001\(rng.below(1_000_000))")
    }

    private mutating func makeTag() -> Tag {
        if rng.chance(50) {
            return Tag(name: rng.pick(Pools.places), type: 1, iconURL: "https://img.example.cn/icon/locate.png")
        }
        return Tag(name: rng.pick(Pools.topics), type: 2, iconURL: "https://img.example.cn/icon/movie.png")
    }
}

/// Invented content for generated statuses.
enum Pools {
    static let names = [
        "小鹿乱撞的晴天", "北漂程序员老王", "一颗柠檬茶", "Kevin_在路上", "深夜食堂老板娘", "猫咪研究所", "阿Q不正传",
        "吃货小分队2023", "旅行的意义", "Luna月亮", "数码控小张", "_橘子汽水_", "早睡早起的熊", "今天也要加油鸭", "山城火锅",
        "Tom和Jerry", "读书笔记君", "跑步的蜗牛", "设计师阿杰", "微博小秘书",
    ]
    static let phrases = [
        "今天天气真好，出门散步看到一大片银杏叶，黄得发亮。", "加班到十点，回家路上买了一份烤红薯，幸福感爆棚！",
        "终于把这本书看完了，结尾真的太意外了。", "周末去爬山，山顶的风好大，差点把帽子吹跑。", "有没有人一起组队打球？",
        "新开的奶茶店排队排了半小时，味道还行吧。", "地铁上看到一只导盲犬，好乖好安静。", "明天又是周一，我不想上班……",
        "这个方案改了第八版，甲方说还是第一版好。", "第一次尝试做蛋糕，结果塌了，但是很好吃。", "分享一首最近单曲循环的歌。",
        "凌晨三点的城市，路灯下只有外卖小哥在奔跑。", "转发抽三位送新年日历，截止到本周五晚八点。", "养了三年的绿萝终于开花了？！",
        "今年的目标：读完24本书，跑完一次半马。", "猫主子今天又把杯子推到地上了。", "和老同学聚餐，聊到十二点还意犹未尽。",
        "雨后的彩虹，拍了二十多张只有这张能看。", "高铁上信号时有时无，刷个微博都要等半天。", "年终总结写不出来，求模板！",
    ]
    static let latin = [
        "Hello world! ", "Good night 🌙 ", "iPhone 15 Pro Max ", "OMG this is so cool ", "WWDC 2024 ", "Swift 6 concurrency ",
        "ha ha ha ", "AI is everywhere ", "Happy Friday! ", "v2.3.1 released ", "NBA Finals G7 ", "100% recommended ",
    ]
    static let emoji = [
        "😂", "👍", "❤️", "🎉", "🙏🏻", "👍🏽", "👩‍👩‍👧‍👦", "👨‍💻", "🏳️‍🌈", "🇨🇳", "🇯🇵", "1️⃣", "#️⃣", "🐱", "🍜", "☕️", "🤦🏻‍♀️", "🧑🏿‍🚀",
    ]
    static let emoticons = [
        "[微笑]", "[哈哈]", "[嘻嘻]", "[爱你]", "[泪]", "[偷笑]", "[doge]", "[喵喵]", "[二哈]", "[赞]", "[心]", "[抓狂]", "[怒]",
        "[并不简单]", "[不存在的表情]",
    ]
    static let topics = ["今日份快乐", "周末去哪儿", "读书打卡", "打工人日常", "我的宠物", "美食记录", "旅行日记", "程序员的日常"]
    static let shortURLs = ["http://t.cn/A6x1aBc", "http://t.cn/A6x2dEf", "http://t.cn/A6x3gHi", "http://t.cn/A6x4jKl"]
    static let urlTitles = ["网页链接", "十个让效率翻倍的小技巧，第七个太实用了", "秒拍视频", "查看图片"]
    static let sources = ["iPhone客户端", "微博 weibo.com", "HUAWEI Mate 60 Pro", "小米14 Ultra", "iPad mini", "微博网页版", "Android"]
    static let places = ["上海·外滩", "北京·798艺术区", "成都·宽窄巷子", "杭州·西湖", "广州·珠江新城"]
    static let cards: [(String, String)] = [
        ("城市夜跑指南：从五公里到半马", "跑步新手最容易犯的七个错误，看完少走弯路"), ("【视频】一分钟学会番茄炒蛋", "厨房小白也能做的家常菜"),
        ("年度书单 | 这十本书值得一读再读", ""), ("猫咪为什么喜欢把东西推下桌？", "动物行为学家给出了答案"),
    ]
    static let titleIcon = "https://img.example.cn/icon/title_hot.png"
    static let linkIcon = "https://img.example.cn/icon/link.png"
}
