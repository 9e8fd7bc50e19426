"""Chinese (zh) offline questions.

Styles: poor_grammar is the colloquial form (啥 for 什么, 咋 for 怎么/如何, no question mark);
misspelled has no spelling to get wrong, so it makes the slip of a pinyin input method instead: one
homophone in the template's words (的/得, 在/再, 是/事, ...), or the colloquial form when none occurs.
"""

from __future__ import annotations

import random
import re

from .wording import Cues, Wording

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


WORDING = Wording(
    code="zh",
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
