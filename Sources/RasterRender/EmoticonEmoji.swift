// Inline emoticons drawn as emoji.
//
// Weibo emoticons are images the client ships; the corpus carries their codes ("[微笑]") and image
// names, not the images. The renderer draws each known image as the emoji closest in meaning, from
// the cascade's colour emoji face, and any other emoticon as its name's first character in a
// rounded box. The table is keyed by image name, so the simplified and traditional spellings of a
// code ("[爱你]", "[愛你]") draw alike. The choice of emoji is this renderer's own.

/// The emoji drawn for Weibo's default emoticon group.
package enum EmoticonEmoji {
    /// Image name (without extension) → the emoji's code point. Every code point is one the
    /// colour emoji face maps (`EmoticonDrawingTests` checks it).
    package static let byImage: [String: UInt32] = [
        "d_zuiyou": 0x1F449,       // [最右] 👉
        "d_hehe": 0x1F642,         // [微笑] 🙂
        "d_xixi": 0x1F601,         // [嘻嘻] 😁
        "d_haha": 0x1F606,         // [哈哈] 😆
        "d_aini": 0x1F970,         // [爱你] 🥰
        "d_wabishi": 0x1F443,      // [挖鼻] 👃
        "d_chijing": 0x1F62E,      // [吃惊] 😮
        "d_yun": 0x1F635,          // [晕] 😵
        "d_lei": 0x1F622,          // [泪] 😢
        "d_chanzui": 0x1F60B,      // [馋嘴] 😋
        "d_zhuakuang": 0x1F62B,    // [抓狂] 😫
        "d_heng": 0x1F624,         // [哼] 😤
        "d_keai": 0x1F60A,         // [可爱] 😊
        "d_nu": 0x1F620,           // [怒] 😠
        "d_han": 0x1F613,          // [汗] 😓
        "d_haixiu": 0x1F633,       // [害羞] 😳
        "d_shuijiao": 0x1F634,     // [睡] 😴
        "d_qian": 0x1F911,         // [钱] 🤑
        "d_touxiao": 0x1F92D,      // [偷笑] 🤭
        "d_xiaoku": 0x1F602,       // [笑cry] 😂
        "d_doge": 0x1F436,         // [doge] 🐶
        "d_miao": 0x1F431,         // [喵喵] 🐱
        "d_ku": 0x1F60E,           // [酷] 😎
        "d_shuai": 0x1F629,        // [衰] 😩
        "d_bizui": 0x1F910,        // [闭嘴] 🤐
        "d_bishi": 0x1F612,        // [鄙视] 😒
        "d_huaxin": 0x1F60D,       // [色] 😍
        "d_guzhang": 0x1F44F,      // [鼓掌] 👏
        "d_beishang": 0x1F61E,     // [悲伤] 😞
        "d_sikao": 0x1F914,        // [思考] 🤔
        "d_shengbing": 0x1F912,    // [生病] 🤒
        "d_qinqin": 0x1F618,       // [亲亲] 😘
        "d_numa": 0x1F92C,         // [怒骂] 🤬
        "d_taikaixin": 0x1F604,    // [太开心] 😄
        "d_landelini": 0x1F644,    // [白眼] 🙄
        "d_youhengheng": 0x1F624,  // [右哼哼] 😤
        "d_zuohengheng": 0x1F624,  // [左哼哼] 😤
        "d_xu": 0x1F92B,           // [嘘] 🤫
        "d_weiqu": 0x1F623,        // [委屈] 😣
        "d_tu": 0x1F92E,           // [吐] 🤮
        "d_kelian": 0x1F97A,       // [可怜] 🥺
        "d_dahaqi": 0x1F971,       // [哈欠] 🥱
        "d_jiyan": 0x1F609,        // [挤眼] 😉
        "d_shiwang": 0x1F614,      // [失望] 😔
        "d_ding": 0x1F446,         // [顶] 👆
        "d_yiwen": 0x2753,         // [疑问] ❓
        "d_kun": 0x1F62A,          // [困] 😪
        "d_ganmao": 0x1F637,       // [感冒] 😷
        "d_baibai": 0x1F44B,       // [拜拜] 👋
        "d_heixian": 0x1F611,      // [黑线] 😑
        "d_yinxian": 0x1F60F,      // [阴险] 😏
        "d_dalian": 0x1F926,       // [打脸] 🤦
        "d_shayan": 0x1F632,       // [傻眼] 😲
        "f_hufen": 0x1F504,        // [互粉] 🔄
        "l_xin": 0x2764,           // [心] ❤
        "l_shangxin": 0x1F494,     // [伤心] 💔
        "d_zhutou": 0x1F437,       // [猪头] 🐷
        "d_xiongmao": 0x1F43C,     // [熊猫] 🐼
        "d_tuzi": 0x1F430,         // [兔子] 🐰
        "h_woshou": 0x1F91D,       // [握手] 🤝
        "h_zuoyi": 0x1F64F,        // [作揖] 🙏
        "h_zan": 0x1F44D,          // [赞] 👍
        "h_ye": 0x270C,            // [耶] ✌
        "h_good": 0x1F44D,         // [good] 👍
        "h_ruo": 0x1F44E,          // [弱] 👎
        "h_buyao": 0x1F645,        // [NO] 🙅
        "h_ok": 0x1F44C,           // [ok] 👌
        "h_haha": 0x1F923,         // [haha] 🤣
        "h_lai": 0x1F919,          // [来] 🤙
        "h_quantou": 0x1F44A,      // [拳头] 👊
        "f_v5": 0x1F4AA,           // [威武] 💪
        "w_xianhua": 0x1F339,      // [鲜花] 🌹
        "o_zhong": 0x23F0,         // [钟] ⏰
        "w_fuyun": 0x2601,         // [浮云] ☁
        "o_feiji": 0x2708,         // [飞机] ✈
        "w_yueliang": 0x1F319,     // [月亮] 🌙
        "w_taiyang": 0x2600,       // [太阳] ☀
        "w_weifeng": 0x1F343,      // [微风] 🍃
        "w_xiayu": 0x1F327,        // [下雨] 🌧
        "f_geili": 0x1F4AF,        // [给力] 💯
        "f_shenma": 0x1F434,       // [神马] 🐴
        "o_weiguan": 0x1F440,      // [围观] 👀
        "o_huatong": 0x1F3A4,      // [话筒] 🎤
        "d_aoteman": 0x1F9B8,      // [奥特曼] 🦸
        "d_shenshou": 0x1F999,     // [草泥马] 🦙
        "f_meng": 0x1F63A,         // [萌] 😺
        "f_jiong": 0x1F616,        // [囧] 😖
        "f_zhi": 0x1F9F6,          // [织] 🧶
        "o_liwu": 0x1F381,         // [礼物] 🎁
        "f_xi": 0x1F38A,           // [喜] 🎊
        "o_weibo": 0x1F9E3,        // [围脖] 🧣
        "o_yinyue": 0x1F3B5,       // [音乐] 🎵
        "o_lvsidai": 0x1F397,      // [绿丝带] 🎗
        "o_dangao": 0x1F382,       // [蛋糕] 🎂
        "o_lazhu": 0x1F56F,        // [蜡烛] 🕯
        "o_ganbei": 0x1F37B,       // [干杯] 🍻
        "d_nanhaier": 0x1F466,     // [男孩儿] 👦
        "d_nvhaier": 0x1F467,      // [女孩儿] 👧
        "d_feizao": 0x1F9FC,       // [肥皂] 🧼
        "o_zhaoxiangji": 0x1F4F7,  // [照相机] 📷
        "d_lang": 0x1F30A,         // [浪] 🌊
        "w_shachenbao": 0x1F32A,   // [沙尘暴] 🌪
    ]

    /// The emoji for an inline image name ("d_hehe.png" or "d_hehe"), if the table has one.
    package static func emoji(forImage name: String) -> UInt32? {
        let stem = name.hasSuffix(".png") || name.hasSuffix(".gif") ? String(name.dropLast(4)) : name
        return byImage[stem]
    }

    /// What the box of an emoticon without an emoji shows: the first character of its code
    /// inside the brackets ("[xkl扭]" → "x"; "[]" or "" → "?").
    package static func boxLabel(forCode code: String) -> String {
        let inner = code.drop { $0 == "[" }
        return inner.first.map { $0 == "]" ? "?" : String($0) } ?? "?"
    }
}
