"""Chinese (zh): every word groundset has in Chinese, by part (``LANGUAGE`` at the end): offline
question templates and styles, out-of-scope aspects, persona words, refusal phrases
and negations.

Styles: poor_grammar is the colloquial form (啥 for 什么, 咋 for 怎么/如何, no question mark);
misspelled has no spelling to get wrong, so it makes the slip of a pinyin input method instead: one
homophone in the template's words (的/得, 在/再, 是/事, ...), or the colloquial form when none occurs.
"""

from __future__ import annotations

import random
import re

from .aspects import Aspect, AspectWording, cjk_words
from .language import Language
from .personas import PersonaWords
from .questions import Cues, QuestionWording
from .refusals import refusal_words
from .words import word_set

_COLLOQUIAL = (
    ("什么", "啥"),
    ("如何", "咋"),
    ("怎么", "咋"),
    ("怎样", "咋"),
    ("请问", ""),
    ("是多少", "多少"),
)
# Characters a pinyin input method confuses, each with a homophone typed by mistake.
_HOMOPHONES = {"的": "得", "在": "再", "是": "事", "做": "作", "以": "已", "那": "哪", "哪": "那", "需": "须"}


def colloquial(text: str, rng: random.Random) -> str:
    for formal, casual in _COLLOQUIAL:
        text = text.replace(formal, casual)
    return text.rstrip("？?。 ")


def homophone_slip(text: str, rng: random.Random) -> str:
    spots = [i for i, char in enumerate(text) if char in _HOMOPHONES]
    if not spots:
        return colloquial(text, rng)
    i = rng.choice(spots)
    return text[:i] + _HOMOPHONES[text[i]] + text[i + 1 :]


QUESTIONS = QuestionWording(
    code="zh",
    # A situational question's situation: {lead} (the persona's role or a neutral one), {topic} (quoted).
    situations=(
        "作为一名{lead}，我目前正在处理{topic}相关的工作。",
        "作为一名{lead}，这周我在梳理{topic}这部分内容。",
    ),
    single={
        "definition": (
            "{term}是什么？",
            "文档中是如何定义{term}的？",
            "{term}指的是什么？",
            "应该怎样理解{term}这个概念？",
        ),
        "default": (
            "{term}的默认值是多少？",
            "如果不做修改，{term}默认是怎样设置的？",
            "{term}默认采用什么设置？",
        ),
        "duration": (
            "{term}的时间设置是多久？",
            "{term}对应的时长是多少？",
            "文档中为{term}规定了多长时间？",
        ),
        "amount": ("{term}的数值是多少？", "文档中为{term}给出的数值是多少？", "{term}需要设置成多少？"),
        "requirement": (
            "使用{term}时有哪些要求？",
            "{term}必须满足什么条件？",
            "配置{term}时需要注意什么？",
            "使用{term}有什么限制吗？",
        ),
        "generic": (
            "文档中是怎样介绍{term}的？",
            "{term}有什么作用？",
            "{term}是如何工作的？",
            "{term}主要用来做什么？",
            "能介绍一下{term}吗？",
        ),
    },
    multi={
        "two": (
            "{term}与{a}和{b}分别有什么关系？",
            "文档中关于{a}和{b}的部分是怎样介绍{term}的？",
            "{term}在{a}和{b}中各起什么作用？",
            "{term}是如何把{a}和{b}联系起来的？",
        ),
        "one": (
            "{term}和{a}有什么关系？文档的其他部分还提到了什么？",
            "文档的不同部分对{term}和{a}分别是怎么说的？",
        ),
        "none": (
            "文档中有两处提到了{term}，它们分别说了什么？",
            "文档里对{term}的几种描述是怎样互相补充的？",
        ),
        "abstract": (
            "{labels}中是如何处理{term}的？",
            "在{labels}中使用{term}时需要了解什么？",
            "{labels}在{term}方面有什么共同点？",
            "{labels}对{term}的处理方式有什么不同？",
        ),
        "abstract_none": (
            "文档的不同部分是如何处理{term}的？",
            "关于{term}，整套文档的要点有哪些？",
            "总体来说，关于{term}需要了解什么？",
        ),
    },
    search={
        "definition": "{term} 是什么意思",
        "default": "{term} 默认值是多少",
        "duration": "{term} 时长设置多久",
        "amount": "{term} 数值设置多少",
        "requirement": "{term} 要求和注意事项",
        "generic": "{term} 作用和用法",
        "two": "{term} {a} {b} 之间的关系",
        "one": "{term} {a} 之间的关系",
        "none": "{term} 不同说明 对比",
        "abstract": "{term} {labels} 区别对比",
        "abstract_none": "{term} 要点总结",
    },
    cues=Cues(
        default=re.compile(r"默认|缺省"),
        requirement=re.compile(r"必须|需要|应该|应当|不得|不能|要求"),
        duration=re.compile(r"\d+(?:\.\d+)?\s*(?:毫秒|秒|分钟|小时|天|周|个月|年)"),
        amount=re.compile(r"\d+(?:\.\d+)?\s*(?:[KMGT]i?B|%|次|个|条|倍)", re.IGNORECASE),
        definition=re.compile(r"^\s*(?:是|指|指的是|表示|即)"),
    ),
    quote="“{}”",
    conjunction="和",
    separator="、",
    scoped="在 {scope} 中，{core}",
    clauses=("根据文档，{core}", "按照文档的说明，{core}"),
    long="作为一名{lead}，{purpose}。{core}",
    leads=("刚接触这套文档的工程师", "第一次阅读这些文档的开发人员", "为小团队搭建这套系统的工程师"),
    purposes=(
        "我需要在修改生产环境之前把这一点弄清楚",
        "我想彻底理解这一点，好向团队解释清楚",
        "我正在编写内部指南，希望其中的每个细节都准确无误",
        "我正在检查现有的配置，想避免以后难以挽回的错误",
    ),
    poor_grammar=colloquial,
    misspelled=homophone_slip,
    spaced=False,
    role_words=("工程师", "开发", "管理员", "分析师", "架构师", "运维", "负责人", "SRE"),
    terminal="？",
    document_word="文档",
    joined="{a}，以及{b}？",
    joined_apart="{a}？另外，{b}？",
    closed_endings=("吗", "呢"),
    compare=(
        "{term}在{a}和{b}中有什么不同？",
        "{a}和{b}分别是怎样描述{term}的？",
        "关于{term}，{a}和{b}的说法有什么区别？",
    ),
    contrast=("{term}和{other}有什么不同？", "{term}与{other}的区别是什么？"),
    search_compare="{term} {a} {b} 区别",
    follow_ups={
        "definition": ("它具体指的是什么？", "那它到底是什么意思呢？"),
        "default": ("它的默认值是多少？", "那它的默认设置呢？", "如果不做修改，它默认是怎样的？"),
        "duration": ("它的时长是多少？", "那它对应的时间是多久呢？"),
        "amount": ("它的数值是多少？", "那它对应的数值呢？"),
        "requirement": ("使用它时有哪些要求？", "那它需要满足什么条件呢？", "配置它时要注意什么？"),
        "generic": (
            "关于它，还有什么需要注意的吗？",
            "文档里关于它还说了什么？",
            "它还有什么作用呢？",
            "那它是怎么工作的呢？",
        ),
    },
    back_marks=("它", "其", "这个", "那个", "这些", "那些", "该"),
    openers=("那么", "那"),
)


# -- out-of-scope aspects (``aspects``) ------------------------------------------------------------

_W = AspectWording
_C = cjk_words
ASPECTS: tuple[Aspect, ...] = (
    Aspect("licence_price", "商业许可证的价格", _C(
        r"价格|费用|收费|免费|多少钱|许可证|许可协议|授权|订阅|商业版|企业版|付费|开源"),
        tool=_W(("{term}的商业许可证多少钱？",
                 "{term}的企业版订阅每年需要多少费用？",
                 "{term}有付费版吗？每台服务器的价格是多少？"),
                "{term}的商业许可证或订阅的价格",
                "{term}的商业许可证每台服务器每年 450 美元。",
                "{term} 商业许可 价格")),
    Aspect("support_contract", "厂商的支持合同", _C(
        r"支持合同|技术支持|商业支持|付费支持|支持服务|服务等级|响应时间|咨询|7\s*[×x*]\s*24"),
        tool=_W(("哪些厂商提供{term}的商业支持合同，并保证响应时间？",
                 "我能为{term}购买 7×24 小时的厂商支持服务吗？由谁提供？"),
                "哪些厂商提供{term}的支持合同以及保证什么",
                "{term}的维护团队提供 7×24 小时支持合同，响应时间为四小时。",
                "{term} 商业支持 合同")),
    Aspect("next_release", "下一个主要版本的计划", _C(
        r"路线图|发布计划|发布周期|发布日期|下一个?(?:主要|大)?版本|下个版本|未来版本|后续版本|计划在|将被移除|弃用|废弃|"
        r"长期支持"),
        tool=_W(("{term}的下一个主要版本什么时候发布？",
                 "{term}下一个大版本计划在什么时候发布？"),
                "{term}的下一个主要版本何时发布",
                "{term}的下一个主要版本将在三月发布，距当前版本六个月。",
                "{term} 下一个版本 发布时间"),
        concept=_W(("下一个主要版本计划对{term}做哪些改动？",
                    "{term}会在以后的版本中被重新设计或者弃用吗？"),
                   "未来版本计划对{term}做哪些改动",
                   "下一个主要版本将重新设计{term}，并弃用现在的做法。",
                   "{term} 未来版本 改动")),
    Aspect("windows_installer", "图形化的 Windows 安装程序", _C(r"安装程序|安装向导|图形化安装|安装包"),
        tool=_W(("{term}有带安装向导的 Windows 安装程序吗？",
                 "能否在 Windows 上用图形化安装程序安装{term}，而不是用命令行？"),
                "{term}是否提供图形化的 Windows 安装程序",
                "{term}提供 MSI 安装包，可以在 Windows 上通过安装向导安装。",
                "{term} windows 安装程序")),
    Aspect("mobile_app", "官方手机应用", _C(
        r"手机|移动端|移动应用|安卓|苹果|平板|应用商店|(?<![A-Za-z])(?:apps?|ios|android|iphone|ipad)(?![A-Za-z])"),
        tool=_W(("{term}有没有官方的 iOS 或安卓手机应用？",
                 "值班的时候，我能用官方的手机应用查看{term}吗？"),
                "{term}是否有官方的手机应用",
                "{term}的官方应用支持 iOS 和安卓手机，可以查看状态并接收推送通知。",
                "{term} 手机 app")),
    Aspect("creator", "谁创建了它以及何时创建", _C(
        r"创建者|创立|创始|发明|最初|起源|历史|由.{0,20}开发|作者|提出|(?:19|20)\d\d\s*年"),
        tool=_W(("{term}最初是谁开发的？是哪一年开始开发的？",
                 "最早是哪家公司做出了{term}？最初的开发者都有谁？"),
                "{term}是谁开发的、何时开始开发",
                "{term}是 2011 年由一家音乐流媒体公司的两名工程师开始开发的。",
                "{term} 历史 创始人"),
        concept=_W(("{term}这个概念最早是谁提出的？是在哪一年？",
                    "最先提出{term}这一想法的是哪个人或哪家公司？"),
                   "{term}最早由谁提出、何时提出",
                   "{term}最早由一家大型搜索公司的工程师在 2014 年提出。",
                   "{term} 起源 提出者")),
    Aspect("compliance", "合规认证", _C(r"认证|合规|审计|等保|资质"),
        tool=_W(("{term}通过 SOC 2 或 HIPAA 合规认证了吗？",
                 "{term}是否通过了 FedRAMP 或 ISO 27001 的独立审计？"),
                "{term}是否具有 SOC 2、HIPAA、FedRAMP 或 ISO 27001 等合规认证",
                "{term}已通过 SOC 2 Type II 认证，并符合 HIPAA 的安全要求。",
                "{term} 合规认证 soc2 iso27001")),
    Aspect("telemetry", "发给开发者的使用统计", _C(r"遥测|使用统计|使用数据|匿名|数据收集"),
        tool=_W(("{term}会向开发者发送匿名使用统计吗？怎样关闭？",),
                "{term}是否会向开发者发送使用统计",
                "{term}每天发送一次匿名使用统计，使用 --no-telemetry 参数可以关闭。",
                "{term} 遥测 关闭")),
    Aspect("adoption", "哪些公司在使用", _C(r"公司|企业|机构|客户|用户群|案例"),
        tool=_W(("有哪些知名公司在生产环境中使用{term}？",
                 "目前有多少家机构在使用{term}？"),
                "哪些公司在使用{term}或有多少家",
                "超过 5000 家机构在生产环境中使用{term}，其中包括几家大型银行。",
                "{term} 哪些公司在用")),
    Aspect("managed_cloud", "托管云服务的价格", _C(
        r"托管|云服务|云厂商|云平台|阿里云|腾讯云|价格|费用|收费|按月|计费"),
        tool=_W(("在 AWS 或 Google Cloud 上以托管服务方式使用{term}，每月要多少钱？",
                 "哪些云厂商提供完全托管的{term}服务？价格是多少？"),
                "{term}作为托管云服务的价格",
                "AWS 提供托管的{term}服务，每小时 0.90 美元。",
                "{term} 托管服务 价格")),
    Aspect("training", "官方培训课程或认证考试", _C(r"认证|考试|培训|课程|讲座|学习路径|训练营"),
        concept=_W(("有没有涵盖{term}的官方认证考试或付费培训课程？",
                    "哪门官方培训课程深入讲解了{term}？"),
                   "是否有涵盖{term}的官方培训课程或认证考试",
                   "官方认证考试中有一个关于{term}的模块，占总分的 15%。",
                   "{term} 官方培训 认证考试")),
    Aspect("benchmark", "与商业产品的基准测试对比", _C(r"基准测试|性能测试|性能对比|跑分|比.{0,12}更?[快慢]"),
        concept=_W(("在公开的基准测试中，{term}与 Datadog 的同类功能相比表现如何？",
                    "在公开的基准测试里，{term}比 New Relic 的同类功能更快吗？"),
                   "公开的基准测试如何比较{term}与 Datadog、New Relic 等产品",
                   "一项公开的基准测试显示，{term}比 Datadog 的同类功能快 40%。",
                   "{term} 基准测试 对比 datadog")),
    Aspect("patents", "专利和商标", _C(r"专利|商标|版权|著作权|许可证|许可协议|知识产权|开源协议"),
        concept=_W(("{term}受专利保护吗？",
                    "有没有专利或商标限制{term}的使用方式？"),
                   "是否有专利或商标涉及{term}",
                   "一项 2016 年申请的专利涵盖{term}，开源项目可以免费使用。",
                   "{term} 专利 商标")),
)  # fmt: skip


# -- personas (``personas``) ------------------------------------------------------------------------

PERSONAS = PersonaWords(
    code="zh",
    roles={
        "Developer": "开发人员",
        "SRE": "可靠性工程师",
        "Operator": "运维工程师",
        "Administrator": "系统管理员",
        "Analyst": "数据分析师",
        "Architect": "架构师",
        "Engineer": "工程师",
    },
    names={
        "Developer": "对接{topic}的开发人员",
        "SRE": "负责{topic}的可靠性工程师",
        "Operator": "部署和维护{topic}的运维工程师",
        "Administrator": "管理{topic}的系统管理员",
        "Analyst": "分析{topic}的数据分析师",
        "Architect": "评估{topic}的架构师",
        "Engineer": "使用{topic}的工程师",
    },
    described=(
        "这位{role}日常负责{extra}相关的工作，希望从文档中找到关于{names}的准确说明。",
        "这位{role}经常和{extra}打交道，希望弄清楚{names}的配置方法和常见问题。",
    ),
    described_plain=(
        "这位{role}希望从文档中找到关于{names}的准确说明。",
        "这位{role}希望弄清楚{names}的配置方法和常见问题。",
    ),
    cues={
        "Developer": ("插件", "开发", "代码", "接口", "集成", "函数", "模块", "脚本", "SDK"),
        "SRE": ("告警", "值班", "故障", "可用性", "静默", "事故", "严重级别", "通知"),
        "Operator": (
            "部署",
            "安装",
            "配置",
            "存储",
            "备份",
            "升级",
            "服务器",
            "磁盘",
            "数据目录",
            "保留",
            "集群",
            "容器",
            "启动",
        ),
        "Administrator": ("权限", "认证", "证书", "密码", "加密", "账号", "安全", "访问控制"),
        "Analyst": ("查询", "仪表盘", "图表", "报表", "统计", "分析", "可视化"),
        "Architect": ("架构", "设计", "方案", "扩展性", "评估", "选型"),
    },
    fallback_name="刚开始使用这套文档的工程师",
    fallback_description="阅读这些文档，想为工作中遇到的实际问题找到可靠的答案。",
    quote="{}",
)


# -- refusals (``refusals``) ------------------------------------------------------------------------

# A Chinese claim about the answerer starts its clause, after at most an apology, "I", the material and an
# adverb: "抱歉，我没有找到", "文档里找不到"; "程序找不到配置文件" is about the program.
_OPENING_ZH = (
    r"(?:^|(?<=[\n，。；：！？,.;:!?]))\s*(?:(?:很)?抱歉|对不起|遗憾的是)?[，,]?\s*"
    r"(?:(?:根据|基于|从)(?:所?提供的|给定的|现有的)?(?:文档|资料|上下文|材料|文本|信息)(?:来看|中|里)?[，,]?\s*)?(?:我们?)?"
    r"(?:在?(?:所?提供的|给定的|现有的)?(?:文档|资料|上下文|材料|文本)(?:中|里|内)?)?(?:也|还|都|并|仍然?|暂时|目前|确实|真的)?"
)
_CHINESE = [
    r"(?:文档|资料|文本|上下文|材料|提供的文件)(?:中|里|内|里面)?(?:并|均|都|也)?(?:没有|未|没)(?:有)?"
    r"(?:提及|提到|说明|涉及|包含|介绍|描述|记载|给出|说|写|讲|相关|关于)",
    rf"{_OPENING_ZH}(?:找不到|未找到|没有找到|没找到|无法找到|查不到|未能找到)",
    rf"{_OPENING_ZH}(?:不清楚|不知道|无法回答|无法确定|无从得知)",
    rf"{_OPENING_ZH}没有(?:相关|这方面|有关)(?:的)?(?:信息|内容|资料|说明|记录)",
    rf"{_OPENING_ZH}(?:无法|不能|没法)(?:根据|从|依据|基于)[^，。；]{{0,12}}?(?:资料|文档|上下文|材料|信息|内容)"
    rf"[^，。；]{{0,6}}?(?:确定|回答|判断|得知|找到)",
]
_SUBORDINATE_ZH = re.compile(r"如果|如若|假如|若|要是|当|因为|由于|虽然|尽管|即使|除非|只要|一旦")
# Right after a Chinese claim: "的" makes it modify a noun, "...时会" a condition.
_DANGLING_ZH = re.compile(
    r"^的|^[^，。；：！？,.;:!?]*?(?<![何小同及实临])(?:时(?:候)?|的话)(?=\s*(?:[，,]|会|将|则|就|便|可|需|应|也|要|请|才|必须|$))"
)

REFUSALS = refusal_words(
    _CHINESE,
    r"[没未无不]",
    _SUBORDINATE_ZH,
    dangling=_DANGLING_ZH,
    guess=r"(?:不过|但是|但)(?:我(?:认为|觉得|猜)|可能|应该|大概)",
)


# -- negations (``negations``) ----------------------------------------------------------------------

NEGATIONS = word_set("不 没 没有 无 非 未 别 不会 不能 不是 不要 无法 不可 并非 从未")


LANGUAGE = Language(
    code="zh",
    name="Chinese",
    questions=QUESTIONS,
    aspects=ASPECTS,
    refusal_form="文档没有说明{missing}。",
    personas=PERSONAS,
    refusals=REFUSALS,
    negations=NEGATIONS,
    falls_back={
        "noun_articles": "none needed: Chinese terms are checked by their script and frequency",
        "sentences": "Chinese ends a sentence at 。！？ whatever precedes it; a period only matters in "
        "embedded English, read with the English abbreviations",
    },
)
