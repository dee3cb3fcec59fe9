#!/usr/bin/env python3
"""Writes Fixtures/StatusInfo.plist, Fixtures/feed.plist, Fixtures/friends.plist and
Fixtures/invalid/* (+ EXPECTED.json).

All content is invented. Re-run after editing: python3 Fixtures/make_fixtures.py
"""
import json, os, plistlib

HERE = os.path.dirname(os.path.abspath(__file__))
INVALID = os.path.join(HERE, "invalid")

# ---------------------------------------------------------------- classic format
LONG = ("【长文】关于在大城市租房的一点经验，写给刚毕业的学弟学妹们。第一，看房一定要白天去一次、晚上再去一次，"
        "白天看采光和通风，晚上听噪音、看治安，顺便数一数楼下有几家还亮着灯的小店。第二，合同里的每一条都要读，"
        "尤其是押金怎么退、提前退租怎么算、维修由谁负责，口头答应的事情一律写进补充条款。第三，"
        "中介费不是不能谈，淡季的时候可以试着砍一砍，实在不行就让他们帮忙换一套新的床垫。第四，"
        "离地铁站步行十五分钟以内是底线，通勤时间每天多半小时，一年就是一百八十多个小时，足够读完二十本书。"
        "第五，和室友提前约定好卫生、访客、水电燃气怎么分摊，写在群公告里，省得以后伤和气。第六，"
        "搬家前把所有家具、墙面、电器拍照留档，退租的时候能少很多扯皮。第七，别为了省钱住在没有窗户的隔断间，"
        "身体是自己的，阳光真的很重要。第八，入住第一天就换锁芯，几十块钱买一个安心。第九，"
        "留意小区周边有没有菜市场和社区医院，生活便利程度比装修风格重要得多。第十，"
        "遇到不合理的要求不要怕，拿起电话打12345，或者在网上把事情经过写清楚，总有人会站出来帮你。"
        "第十一，学会和房东保持礼貌而清楚的沟通，有问题用文字留痕，月初按时交租，彼此都省心。第十二，"
        "给自己买一盏好台灯、一套舒服的床品和几盆好养的绿植，出租屋也可以很有家的样子。"
        "最后，祝大家都能找到一个下班后想回去的地方。租房不易，且行且珍惜[心][心][心] #毕业季# @租房小助手 "
        "更多问题可以看这里 http://t.cn/A6rentQ 欢迎转发给需要的朋友 🙏🏻🏠")
assert len(LONG) >= 600, len(LONG)

CLASSIC = [
    ("小鹿乱撞的晴天", "vip", "刚刚", "iPhone 15 Pro", "今天终于把拖了三个月的驾照考下来了！科目三一次过[哈哈][哈哈] 感谢教练不骂之恩🙏🏻"),
    ("北漂程序员老王", "", "3分钟前", "微博 weibo.com", "上线前五分钟发现一个空指针，改完以后又发现测试环境的数据库挂了……今晚又是通宵 ☕️☕️☕️"),
    ("一颗柠檬茶", "vip", "12分钟前", "小米14", "下午茶分享：柠檬红茶+芝士蛋糕，人均38元，环境很适合发呆。\n地址在静安寺附近，周末人有点多。"),
    ("Kevin_在路上", "", "半小时前", "iPad mini", "Flight CA1831 delayed for 2 hours again. 在首都机场T3看了三部电影了 ✈️ #出差日常#"),
    ("深夜食堂老板娘", "vip", "1小时前", "HUAWEI Mate 60", "今晚的限定菜单：红烧肉、番茄牛腩、葱油拌面。来晚了就没有了哦～[馋嘴]"),
    ("猫咪研究所", "", "2小时前", "微博网页版", "科普：猫咪每天需要睡12到16个小时，所以它不是懒，它只是在充电 🐱💤 @喵星人观察员 你怎么看？[微笑]"),
    ("阿Q不正传", "", "3小时前", "Android", ""),
    ("吃货小分队2023", "vip", "5小时前", "OPPO Find X7", "成都三天吃了十一顿火锅，体重+3kg，不后悔！#吃遍成都# [doge]"),
    ("旅行的意义", "", "今天 09:12", "iPhone 14", "凌晨四点爬上山顶等日出，云海翻涌的那一刻所有的疲惫都值了🌄\n\n📍黄山·光明顶"),
    ("Luna月亮", "vip", "今天 08:03", "iPhone 13 mini", "Good morning everyone! 今天的早餐是牛油果吐司🥑 + 冰美式，开启元气满满的一天💪🏼"),
    ("数码控小张", "", "昨天 23:45", "微博 weibo.com", "新手机到手一周的真实体验：续航 9/10，拍照 8/10，发热 6/10，详细测评戳 http://t.cn/A6dgtl1 #数码测评#"),
    ("_橘子汽水_", "", "昨天 21:30", "vivo X100", "我们家的全家福终于拍好啦 👨‍👩‍👧‍👦 奶奶说照片里她最上镜[偷笑]"),
    ("早睡早起的熊", "vip", "昨天 19:02", "Android", "打卡第 100 天：每天 6:30 起床、23:00 睡觉。坚持下来以后真的不一样了 💯"),
    ("今天也要加油鸭", "", "昨天 12:20", "iPhone 12", "面试第三轮过了！！！终于等到HR的电话了😭😭😭 谢谢一直鼓励我的@小鹿乱撞的晴天 和 @北漂程序员老王"),
    ("山城火锅", "vip", "11-20 18:44", "微博 weibo.com", "重庆的朋友们注意了，今天起解放碑附近部分道路临时封闭，出行请绕行 🚧 详情 http://t.cn/A6cqrd9"),
    ("Tom和Jerry", "", "11-19 15:10", "iPad Pro", "Watching the World Cup final with friends 🇦🇷🇫🇷 what a game!!! 点球大战看得心脏都要停了"),
    ("读书笔记君", "vip", "11-18 22:01", "Kindle", "「我们读书，是为了知道自己并不孤单。」 #每日一句# [心]"),
    ("跑步的蜗牛", "", "11-18 07:35", "华为手表 GT4", "晨跑 10.01km，配速 5'42\"，心率 152。秋天的风好舒服 🏃🏽‍♀️🍂"),
    ("设计师阿杰", "", "11-17 16:27", "MacBook Pro", "甲方：logo 能不能再大一点，同时再小一点？\n我：……[抓狂][抓狂][抓狂]"),
    ("微博小秘书", "vip", "11-16 10:00", "微博 weibo.com", "【公告】为了营造良好的社区环境，即日起将加强对违规营销内容的处理，详情请见 http://t.cn/A6notice #社区公约#"),
    ("小鹿乱撞的晴天", "vip", "2023-11-15 20:18", "iPhone 15 Pro", "密码锁的提示音是 1️⃣2️⃣3️⃣4️⃣ 吗？邻居家的门铃每天响八百遍 😅 #️⃣生活吐槽"),
    ("北漂程序员老王", "", "2023-11-14 02:56", "微博 weibo.com", "git push --force 之前请三思。这是一个血的教训。[泪]"),
    ("一颗柠檬茶", "vip", "2023-11-12 13:40", "小米14", "周末手作：用旧牛仔裤改了一个帆布包👜，材料费0元，耗时4小时，成就感满分！"),
    ("Kevin_在路上", "", "2023-11-10 18:09", "iPad mini", "東京の夜景、きれい！ 东京塔下的夜景真的绝了 🗼🇯🇵 Tokyo never sleeps."),
    ("深夜食堂老板娘", "vip", "2023-11-08 21:55", "HUAWEI Mate 60", "有位客人每周三都来点一碗阳春面，今天他说下个月要回老家了。祝一路顺风[拜拜]"),
    ("猫咪研究所", "", "2023-10-31 19:00", "微博网页版", "万圣节特辑：各位家长晒出你们家主子的变装照吧🎃🐈‍⬛ 评论区抽三位送猫薄荷 #萌宠万圣节#"),
    ("阿Q不正传", "", "2023-10-25 08:30", "Android", "1234567890 数字测试：电话请拨 400-800-8820，验证码 738261（请勿泄露）"),
    ("吃货小分队2023", "vip", "Wed Oct 18 12:34:56 +0800 2023", "OPPO Find X7", "广州早茶必点清单：虾饺、烧卖、凤爪、肠粉、流沙包 🥟🥟🥟 你们还有什么推荐？"),
    ("旅行的意义", "", "Sun Oct 01 06:00:00 +0800 2023", "iPhone 14", "国庆第一天，天安门广场升旗仪式 🇨🇳 人山人海，但是值得！"),
    ("Luna月亮", "vip", "2023-09-29 21:00", "iPhone 13 mini", "中秋快乐🥮🌕 Happy Mid-Autumn Festival to everyone far from home ❤️ [月亮]"),
    ("数码控小张", "", "2023-09-13 01:20", "微博 weibo.com", LONG),
    ("_橘子汽水_", "", "2023-09-01 07:45", "vivo X100", "开学第一天👩🏻‍🎓👨🏿‍🎓 新的学期新的开始，加油！\n\n\n（偷偷说一句：好想放假）"),
    ("早睡早起的熊", "vip", "2023-08-20 22:10", "Android", "Test with mixed scripts: English, 中文, 日本語, 한국어, العربية, and emoji 🧑🏻‍💻👩🏾‍🔬🏳️‍🌈 all in one line."),
]

def classic():
    out = []
    for i, (name, mb, created, source, text) in enumerate(CLASSIC):
        d = {"Id": 3900000000000000 + i * 131, "profileImageUrl": "https://tva%d.example.cn/avatar/%03d.jpg" % (1 + i % 4, i),
             "userName": name, "createdAt": created, "source": source, "text": text}
        if mb:
            d["mbtype"] = mb
        out.append(d)
    return out

# ---------------------------------------------------------------- full model
def date(day, hh, mm, ss):
    wd = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][(day - 13) % 7]  # 2023-11-13 was a Monday
    return "%s Nov %02d %02d:%02d:%02d +0800 2023" % (wd, day, hh, mm, ss)

def user(i, name, vip=0, vt=-1):
    return {"id": 2000000000 + i * 17, "idstr": str(2000000000 + i * 17), "name": name, "screen_name": name, "remark": "",
            "profile_image_url": "https://tva%d.example.cn/crop.0.0.180.180/%d.jpg" % (1 + i % 4, i),
            "verified_type": vt, "mbrank": vip, "mbtype": 12 if vip else 0}

def pic(pid, w, h, kind="JPEG", keep=0, as_strings=False):
    wv, hv = (str(w), str(h)) if as_strings else (w, h)
    return {"pic_id": pid, "keep_size": keep,
            "thumbnail": {"url": "https://wx1.example.cn/thumbnail/%s.jpg" % pid, "width": 180, "height": max(1, h * 180 // max(w, 1)), "type": kind},
            "bmiddle": {"url": "https://wx1.example.cn/bmiddle/%s.jpg" % pid, "width": 440, "height": max(1, h * 440 // max(w, 1)), "type": kind},
            "large": {"url": "https://wx1.example.cn/large/%s.jpg" % pid, "width": wv, "height": hv, "type": kind}}

def pics(prefix, sizes, **kw):
    ids = ["%s%02d" % (prefix, k) for k in range(len(sizes))]
    infos = {}
    for pid, s in zip(ids, sizes):
        w, h = s[0], s[1]
        kind = s[2] if len(s) > 2 else "JPEG"
        infos[pid] = pic(pid, w, h, kind, **kw)
    return {"pic_ids": ids, "pic_infos": infos}

def anchor(name):
    return '<a href="https://app.example.cn/" rel="nofollow">%s</a>' % name

def status(sid, day, text, u, src="iPhone客户端", rc=0, cc=0, ac=0, **extra):
    d = {"id": sid, "idstr": str(sid), "created_at": date(day, 8 + sid % 12, sid % 60, (sid * 7) % 60), "text": text,
         "source": anchor(src), "user": u, "reposts_count": rc, "comments_count": cc, "attitudes_count": ac,
         "attitudes_status": 0, "pic_ids": []}
    d.update(extra)
    return d

URL_VIDEO = {"short_url": "http://t.cn/A6vid01", "url_title": "秒拍视频", "ori_url": "https://video.example.cn/show/1034:abc",
             "url_type": 39, "url_type_pic": "https://img.example.cn/icon/video.png", "page_id": "230444abc"}
URL_WEB = {"short_url": "http://t.cn/A6web02", "url_title": "深度长文：一座城市的地铁是怎样建成的", "ori_url": "https://news.example.cn/2023/11/metro.html",
           "url_type": 0, "url_type_pic": "https://img.example.cn/icon/link.png"}
URL_PIC = dict({"short_url": "http://t.cn/A6pic03", "url_title": "查看图片", "ori_url": "https://photo.example.cn/h5/repost/1",
                "url_type": 39, "url_type_pic": "https://img.example.cn/icon/photo.png"}, **pics("urlpic", [(900, 1600)]))

def feed():
    S = []
    S.append(status(4100000000000001, 20, "早上好☀️ 今天北京的天空蓝得不像话，随手拍了一张 #今日份快乐#", user(1, "小鹿乱撞的晴天", 5, 0),
                    rc=12, cc=34, ac=256, topic_struct=[{"topic_title": "今日份快乐", "topic_url": "sinaweibo://searchall?q=今日份快乐"}],
                    **pics("a", [(1080, 1440)])))
    S.append(status(4100000000000002, 20, "上周末的露营照片终于修完了🏕️ 九宫格预警！", user(2, "旅行的意义"), src="HUAWEI Mate 60 Pro",
                    rc=1024, cc=2048, ac=10086, title={"text": "热门", "icon_url": "https://img.example.cn/icon/title_hot.png"},
                    **pics("b", [(1080, 1080), (1080, 1440), (1440, 1080), (800, 800), (1200, 900, "GIF"), (1080, 1920), (640, 640), (1080, 1350), (2000, 1000)])))
    S.append(status(4100000000000003, 19, "截了一张超长的聊天记录，你们感受一下我妈的语音轰炸😂", user(3, "_橘子汽水_"),
                    rc=5, cc=88, ac=1999, **pics("c", [(750, 6000)], as_strings=True)))
    S.append(status(4100000000000004, 19, "这个表情包我能笑一年[哈哈][哈哈] 转给@今天也要加油鸭 [微笑][不存在的表情]", user(4, "猫咪研究所", 3), rc=33333, cc=4444, ac=123456,
                    **pics("d", [(300, 300, "GIF")])))
    S.append(status(4100000000000005, 19, "原图直出，不裁剪 📷", user(5, "设计师阿杰"), rc=0, cc=1, ac=2,
                    **pics("e", [(4000, 3000)], keep=1)))
    S.append(status(4100000000000006, 18, "一分钟看懂番茄炒蛋到底先放番茄还是先放蛋 http://t.cn/A6vid01", user(6, "深夜食堂老板娘", 7, 0),
                    rc=23456789, cc=3456789, ac=45678901, url_struct=[URL_VIDEO],
                    page_info={"page_title": "秒拍视频", "page_desc": "番茄炒蛋的正确打开方式，厨房新手必看", "type": 11, "object_type": "video",
                               "page_pic": "https://img.example.cn/card/video_tomato.jpg",
                               "page_url": "https://video.example.cn/show/1034:abc", "page_id": "230444abc"}))
    S.append(status(4100000000000007, 18, "推荐一篇好文 http://t.cn/A6web02 写得很扎实，值得一读", user(7, "读书笔记君", 2), url_struct=[URL_WEB],
                    rc=88, cc=12, ac=301,
                    page_info={"page_title": "一座城市的地铁是怎样建成的", "page_desc": "从勘探、盾构到通车，十年磨一剑", "type": "2",
                               "object_type": "article", "page_pic": "https://img.example.cn/card/metro.jpg",
                               "buttons": [{"type": "link", "name": "阅读"}], "page_url": "https://news.example.cn/2023/11/metro.html",
                               "page_id": "100120metro"}))
    S.append(status(4100000000000008, 17, "外滩的夜景永远看不腻🌃", user(8, "Kevin_在路上", 0, 220), src="iPad mini", rc=7, cc=9, ac=520,
                    tag_struct=[{"tag_name": "上海·外滩", "tag_type": 1, "url_type_pic": "https://img.example.cn/icon/locate.png",
                                 "tag_scheme": "sinaweibo://pageinfo?containerid=100101shanghai"}],
                    **pics("h", [(1920, 1080), (1080, 1920)])))
    S.append(status(4100000000000009, 17, "刚看完，后劲好大 #电影推荐#", user(9, "Tom和Jerry"), rc=3, cc=4, ac=50,
                    topic_struct=[{"topic_title": "电影推荐", "topic_url": "sinaweibo://searchall?q=电影推荐"}],
                    tag_struct=[{"tag_name": "流浪地球2", "tag_type": 2, "url_type_pic": "https://img.example.cn/icon/movie.png"}]))
    rt1 = status(4099999999990001, 15, "【公告】本周六上午十点，城市图书馆举办旧书交换活动，欢迎带上你的旧书来换一本新故事📚 #读书打卡#",
                 user(10, "城市图书馆", 0, 1), src="微博 weibo.com", rc=56789, cc=1234, ac=98765,
                 topic_struct=[{"topic_title": "读书打卡", "topic_url": "sinaweibo://searchall?q=读书打卡"}],
                 **pics("j", [(1080, 1080), (1080, 1080), (1080, 1080), (1080, 1080)]))
    S.append(status(4100000000000010, 16, "周六见！//@读书笔记君:已经准备好了三本[嘻嘻]", user(11, "早睡早起的熊", 1), rc=2, cc=0, ac=5,
                    retweeted_status=rt1))
    rt2 = status(4099999999990002, 14, "地铁新线路开通了，通勤时间缩短二十分钟 http://t.cn/A6web02", user(12, "本地生活速递", 0, 3),
                 rc=12000000, cc=230000, ac=1500000)
    # rt2 has no url_struct of its own: it inherits the outer status's, as in the API.
    S.append(status(4100000000000011, 16, "终于不用换乘三次了😭 http://t.cn/A6pic03", user(13, "北漂程序员老王"), rc=1, cc=2, ac=3,
                    url_struct=[URL_WEB, URL_PIC], retweeted_status=rt2))
    rt3 = status(4099999999990003, 13, "秋天的第一杯奶茶🧋", user(14, "一颗柠檬茶", 4), src="小米14", rc=10, cc=20, ac=30,
                 **pics("l", [(800, 3200), (800, 800, "WEBP"), (640, 480, "GIF")]))
    S.append(status(4100000000000012, 15, "转发微博", user(15, "今天也要加油鸭"), rc=0, cc=0, ac=0, attitudes_status=1,
                    retweeted_status=rt3))
    rt4 = {"id": 4099999999990004, "idstr": "4099999999990004", "created_at": date(13, 9, 0, 0), "deleted": "1",
           "text": "抱歉，此微博已被作者删除。查看帮助：http://t.cn/A6help0"}
    S.append(status(4100000000000013, 14, "啊，原博怎么删了", user(16, "阿Q不正传"), rc=0, cc=3, ac=1, retweeted_status=rt4))
    return S

# ---------------------------------------------------------------- friend list (QQ tutorial)
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
GIVEN = ["晓明", "雨桐", "子涵", "浩然", "欣怡", "宇轩", "思远", "梓萱", "俊杰", "诗涵", "一鸣", "佳琪", "明轩", "若曦", "天佑", "可馨"]
LATIN = ["Alice", "Bob Chen", "Charlotte", "Diego", "Emma_W", "François", "Grace Liu", "Hiro", "Isabella", "Jack",
         "Kim Min-jun", "Lars", "Mia", "Noah", "Olivia", "Pavel", "Quinn", "Rosa", "Sven", "Tariq"]
EMOJI = ["🐱", "🌸", "🚀", "🍜", "🎮", "🌙", "☕️", "🐼", "🎸", "🏀"]
INTROS = ["今天也要元气满满", "Busy, text me later.", "人生苦短，我用 Python 🐍", "在路上 🚗", "", "拒绝内卷，从我做起",
          "Stay hungry, stay foolish.", "周末约饭的私聊 🍲", "考研倒计时 128 天 📚", "不想上班的第 N 天",
          "こんにちは！东京留学中 🇯🇵", "❤️🧡💛💚💙💜"]
LONG_INTRO = ("这是一条很长很长的个性签名：生活不止眼前的苟且，还有诗和远方的田野；"
              "愿你出走半生，归来仍是少年。Life is what happens when you're busy making other plans. 🌈🌈🌈 "
              "——写于一个下雨的周日下午，窗外的梧桐叶落了一地，楼下的猫又在晒太阳")

class Lcg:
    """A fixed linear congruential generator: the fixture does not depend on Python's random."""
    def __init__(self, seed):
        self.x = seed
    def next(self, n):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.x >> 33) % n

def friend(r, i):
    kind = r.next(10)
    if kind < 6:
        name = SURNAMES[r.next(len(SURNAMES))] + GIVEN[r.next(len(GIVEN))]
    elif kind < 9:
        name = LATIN[r.next(len(LATIN))]
    else:
        name = GIVEN[r.next(len(GIVEN))] + EMOJI[r.next(len(EMOJI))]
    intro = LONG_INTRO if r.next(9) == 0 else INTROS[r.next(len(INTROS))]
    return {"Avatars": "avatar_%03d" % (i % 200), "Name": name, "Intro": intro, "VIP": r.next(4) == 0}

FRIEND_GROUPS = [("我的好友", 24, None), ("家人", 6, 4), ("同学", 138, None), ("同事", 57, 12), ("黑名单", 0, None),
                 ("Colleagues abroad 🌍", 18, None), ("大学室友", 4, None), ("陌生人", 0, 0), ("游戏好友 🎮", 103, None),
                 ("特别关心 ❤️", 3, 3), ("A very long group name that does not fit on one line of a phone", 9, None),
                 ("最近联系人", 31, None)]

def friends():
    r = Lcg(20260528)
    out, n = [], 0
    for name, count, online in FRIEND_GROUPS:
        g = {"GroupName": name, "Friends": []}
        for _ in range(count):
            g["Friends"].append(friend(r, n))
            n += 1
        if online is not None:
            g["Online"] = online
        out.append(g)
    return out

def write_plist(path, obj):
    with open(path, "wb") as f:
        plistlib.dump(obj, f, fmt=plistlib.FMT_XML, sort_keys=True)

# ---------------------------------------------------------------- invalid inputs
# Inputs too large to commit: their expectation is in EXPECTED.json, the tests write the file.
GENERATED_BY_TESTS = {"huge-string.json"}

def ok(i=0, **over):
    d = {"id": 5000 + i, "created_at": "Wed Sep 09 10:11:34 +0800 2015", "text": "正常的第%d条微博" % i,
         "source": anchor("微博 weibo.com"), "user": {"id": 100 + i, "screen_name": "测试用户%d" % i}}
    d.update(over)
    return d

def j(obj):
    return json.dumps(obj, ensure_ascii=False).encode()

def deep_binary_plist(depth):
    """A binary plist of `depth` nested one-element arrays, written by hand (plistlib recurses)."""
    import struct
    body = bytearray(b"bplist00")
    offsets = []
    for i in range(depth):
        offsets.append(len(body))
        body += bytes([0xA1]) + struct.pack(">I", i + 1)
    offsets.append(len(body))
    body += bytes([0xA0])
    table = len(body)
    for o in offsets:
        body += struct.pack(">I", o)
    body += bytes(6) + bytes([4, 4]) + struct.pack(">QQQ", len(offsets), 0, table)
    return bytes(body)

def invalid():
    cases = {}  # name -> (bytes, expected)
    def add(name, data, case, keyPath="", **more):
        cases[name] = (data, dict({"case": case, "keyPath": keyPath}, **more))
    add("truncated.json", j({"statuses": [ok(0), ok(1)]})[:-25], "malformed")
    add("garbage.bin", bytes([0x00, 0x13, 0x37, 0xC0, 0xFF, 0xEE, 0x42, 0x99] * 64), "unrecognizedFormat")
    add("utf16-bom.json", "\ufeff{\"statuses\":[]}".encode("utf-16-le"), "unrecognizedFormat")
    add("wrong-root-object.json", j({"data": [ok(0)]}), "wrongRoot")
    add("wrong-root-plist.plist", plistlib.dumps("只是一个字符串"), "wrongRoot")
    add("statuses-not-array.json", j({"statuses": {"0": ok(0)}}), "typeMismatch", "statuses")
    add("status-not-object.json", j({"statuses": [ok(0), 42]}), "typeMismatch", "statuses[1]", index=1)
    s = ok(0); del s["id"]
    add("missing-id.json", j({"statuses": [s]}), "missingKey", "statuses[0].id", index=0)
    s = ok(1); del s["text"]
    add("missing-text.json", j({"statuses": [ok(0), s]}), "missingKey", "statuses[1].text", index=1, id=5001)
    s = ok(0); del s["user"]
    add("missing-user.json", j([s]), "missingKey", "[0].user", index=0, id=5000)
    s = ok(3); s["user"]["screen_name"] = 12345
    add("wrong-type-screen-name.json", j({"statuses": [ok(0), ok(1), ok(2), s]}), "typeMismatch", "statuses[3].user.screen_name", index=3, id=5003)
    add("count-not-a-number.json", j({"statuses": [ok(0, reposts_count="很多")]}), "invalidValue", "statuses[0].reposts_count", index=0)
    add("negative-count.json", j({"statuses": [ok(0, comments_count=-5)]}), "invalidValue", "statuses[0].comments_count", index=0)
    add("bad-date.json", j({"statuses": [ok(0, created_at="2015/09/09 10:11")]}), "invalidValue", "statuses[0].created_at", index=0)
    add("invalid-utf8.json", b'{"statuses":[{"id":1,"text":"\xe4\xb8\xad\xff\xfe","user":{"id":1,"screen_name":"x"}}]}', "malformed")
    add("deep-nesting.json", b"[" * 100000 + b"]" * 100000, "nestingTooDeep")
    add("deep-nesting.plist", b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">' + b"<array>" * 20000
        + b"</array>" * 20000 + b"</plist>\n", "nestingTooDeep")
    add("deep-nesting-binary.plist", deep_binary_plist(100000), "nestingTooDeep")
    add("huge-string.json", j({"statuses": [ok(0, text="长" * (10 * 1024 * 1024 // 3 + 1))]}), "valueTooLarge", "statuses[0].text", index=0)
    add("bad-plist.plist", '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n<dict>\n<key>Id</key>\n<integer>12</integer>\n<key>text</key>\n<string>没有结尾'.encode(), "malformed")
    add("bad-line3.jsonl", j(ok(0)) + b"\n" + j(ok(1)) + b"\n" + j(ok(2))[:30] + b"\n" + j(ok(3)) + b"\n", "malformed", line=3)
    add("wrong-root-line2.jsonl", j(ok(0)) + b"\n[1, 2, 3]\n", "wrongRoot", line=2)
    s = ok(1); del s["id"]
    add("missing-id-line2.jsonl", j(ok(0)) + b"\n" + j(s) + b"\n", "missingKey", "[1].id", index=1, line=2)
    add("empty.json", b"", "empty")
    add("whitespace-only.json", b"  \n\t\n  ", "empty")
    classic = [{"Id": 1, "userName": "甲", "text": "一"}, {"Id": 2, "userName": "乙", "text": "二"}, {"Id": 3, "text": "三"}]
    add("classic-missing-username.plist", plistlib.dumps(classic), "missingKey", "[2].userName", index=2, id=3)
    add("classic-id-not-number.plist", plistlib.dumps([{"Id": "第一条", "userName": "甲", "text": "一"}]), "invalidValue", "[0].Id", index=0)
    add("picture-missing-infos.json", j({"statuses": [ok(0, pic_ids=["p1"])]}), "missingKey", "statuses[0].pic_infos", index=0)
    add("picture-width-bool.json", j({"statuses": [ok(0, pic_ids=["p1"], pic_infos={"p1": {"large": {"url": "u", "width": True, "height": 10}}})]}),
        "typeMismatch", "statuses[0].pic_infos.p1.large.width", index=0)
    add("retweet-user-string.json", j({"statuses": [ok(0, retweeted_status=ok(9, user="某人"))]}), "typeMismatch",
        "statuses[0].retweeted_status.user", index=0, id=5000)
    add("topic-missing-title.json", j({"statuses": [ok(0, topic_struct=[{"topic_url": "x"}])]}), "missingKey",
        "statuses[0].topic_struct[0].topic_title", index=0)
    add("text-is-array.json", j({"statuses": [ok(0, text=["不是", "字符串"])]}), "typeMismatch", "statuses[0].text", index=0)
    def group(name, friends, **more):
        return dict({"GroupName": name, "Friends": friends}, **more)
    pal = {"Name": "小明", "Intro": "你好", "Avatars": "a1", "VIP": False}
    add("friends-missing-name.plist", plistlib.dumps([group("同学", [pal]), group("同事", [pal, pal, {"Intro": "没有名字"}])]),
        "missingKey", "[1].Friends[2].Name", index=2, section=1, title="同事")
    add("friends-vip-not-boolean.plist", plistlib.dumps([group("家人", [dict(pal, VIP="也许")])]),
        "invalidValue", "[0].Friends[0].VIP", index=0, section=0, title="家人")
    add("friends-friends-not-array.plist", plistlib.dumps([group("好友", [pal]), group("同学", "小明")]),
        "typeMismatch", "[1].Friends", section=1, title="同学")
    add("friends-group-not-dict.plist", plistlib.dumps([group("好友", [pal]), "第二组"]), "typeMismatch", "[1]", section=1)
    add("friends-online-too-many.plist", plistlib.dumps([group("好友", [pal, pal], Online=3)]),
        "invalidValue", "[0].Online", section=0, title="好友")
    add("friends-friend-not-dict.plist", plistlib.dumps([group("好友", [pal, 7])]), "typeMismatch", "[0].Friends[1]",
        index=1, section=0, title="好友")
    add("sections-missing-text.plist", plistlib.dumps({"sections": [{"title": "今天", "statuses": [ok(0)]},
                                                                     {"title": "昨天", "statuses": [ok(1), {"id": 9, "user": {"id": 1, "screen_name": "x"}}]}]}),
        "missingKey", "sections[1].statuses[1].text", index=1, id=9, section=1, title="昨天")
    return cases

def main():
    write_plist(os.path.join(HERE, "StatusInfo.plist"), classic())
    write_plist(os.path.join(HERE, "feed.plist"), {"statuses": feed()})
    write_plist(os.path.join(HERE, "friends.plist"), friends())
    os.makedirs(INVALID, exist_ok=True)
    expected = {}
    for name, (data, exp) in sorted(invalid().items()):
        expected[name] = exp
        if name in GENERATED_BY_TESTS:
            continue
        with open(os.path.join(INVALID, name), "wb") as f:
            f.write(data)
    with open(os.path.join(INVALID, "EXPECTED.json"), "w") as f:
        json.dump(expected, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write("\n")

main()
