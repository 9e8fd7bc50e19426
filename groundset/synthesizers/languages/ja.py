"""Japanese (ja) offline questions.

Styles: poor_grammar is the casual plain form (です/ます dropped: "…は何？", "…書かれてる");
misspelled has no spelling to get wrong, so it makes the slip of an input method instead: a word of
the template left unconverted in hiragana (何 -> なに, 設定 -> せってい), or the casual form when the
template has none of those words.
"""

from __future__ import annotations

import random
import re

from .wording import Cues, Wording

_CASUAL = (
    ("されていますか", "されてる"),
    ("ていますか", "てる"),
    ("でしょうか", ""),
    ("ありますか", "ある"),
    ("しますか", "する"),
    ("されますか", "される"),
    ("なりますか", "なる"),
    ("ますか", "る"),
    ("ですか", ""),
    ("ください", ""),
)
# Template words and their unconverted reading.
_READINGS = {
    "何です": "なんです",
    "何の": "なんの",
    "何": "なに",
    "設定": "せってい",
    "説明": "せつめい",
    "時間": "じかん",
    "役割": "やくわり",
    "条件": "じょうけん",
    "関係": "かんけい",
    "違い": "ちがい",
    "使": "つか",
    "定義": "ていぎ",
}
_READING = re.compile("|".join(sorted(map(re.escape, _READINGS), key=len, reverse=True)))


def casual(text: str, rng: random.Random) -> str:
    for polite, plain in _CASUAL:
        text = text.replace(polite, plain)
    return text.rstrip("？?。 ")


def unconverted(text: str, rng: random.Random) -> str:
    spots = list(_READING.finditer(text))
    if not spots:
        return casual(text, rng)
    for spot in sorted(rng.sample(spots, min(rng.choice((1, 2)), len(spots))), key=lambda m: -m.start()):
        text = text[: spot.start()] + _READINGS[spot.group(0)] + text[spot.end() :]
    return text


WORDING = Wording(
    code="ja",
    single={
        "definition": (
            "{term}とは何ですか？",
            "{term}はどのように定義されていますか？",
            "ドキュメントでは{term}をどう説明していますか？",
        ),
        "default": (
            "{term}のデフォルト値はいくつですか？",
            "{term}は既定でどのように設定されていますか？",
            "何も変更しない場合、{term}はどうなりますか？",
        ),
        "duration": (
            "{term}の時間はどれくらいに設定されていますか？",
            "{term}にはどのくらいの時間が指定されていますか？",
        ),
        "amount": ("{term}の値はいくつですか？", "{term}にはどんな数値が指定されていますか？"),
        "requirement": (
            "{term}にはどのような条件がありますか？",
            "{term}を使うときに守るべきことは何ですか？",
            "{term}を設定する際の注意点は何ですか？",
        ),
        "generic": (
            "{term}について、ドキュメントには何が書かれていますか？",
            "{term}はどのように動作しますか？",
            "{term}は何のために使われますか？",
            "{term}の役割は何ですか？",
        ),
    },
    multi={
        "two": (
            "{term}は{a}と{b}にどう関係していますか？",
            "{a}と{b}の説明では、{term}について何が書かれていますか？",
            "{term}は{a}と{b}でそれぞれどんな役割を果たしますか？",
        ),
        "one": (
            "{term}と{a}はどう関係していますか？ほかの箇所では何と説明されていますか？",
            "ドキュメントの別々の箇所では、{term}と{a}について何と書かれていますか？",
        ),
        "none": (
            "ドキュメントの二つの箇所では、{term}についてそれぞれ何と書かれていますか？",
            "{term}に関するいくつかの説明は、どのようにつながっていますか？",
        ),
        "abstract": (
            "{labels}では、{term}はどのように扱われていますか？",
            "{labels}で{term}を扱うとき、何を知っておくべきですか？",
            "{labels}に共通する{term}の考え方は何ですか？",
            "{labels}では、{term}の扱い方にどんな違いがありますか？",
        ),
        "abstract_none": (
            "ドキュメント全体で、{term}はどのように扱われていますか？",
            "{term}について押さえておくべき要点は何ですか？",
        ),
    },
    search={
        "definition": "{term} とは 意味",
        "default": "{term} デフォルト値",
        "duration": "{term} 時間 設定",
        "amount": "{term} 値 設定方法",
        "requirement": "{term} 条件 注意点",
        "generic": "{term} 使い方 役割",
        "two": "{term} {a} {b} 関係",
        "one": "{term} {a} 関係",
        "none": "{term} 説明 違い",
        "abstract": "{term} {labels} 違い 比較",
        "abstract_none": "{term} 要点 まとめ",
    },
    cues=Cues(
        default=re.compile(r"デフォルト|既定|初期値|標準で"),
        requirement=re.compile(r"必要|なければならない|なければなりません|必須|べき|してはいけ"),
        duration=re.compile(r"\d+(?:\.\d+)?\s*(?:ミリ秒|秒|分|時間|日|週間|か月|ヶ月|年)"),
        amount=re.compile(r"\d+(?:\.\d+)?\s*(?:[KMGT]i?B|%|回|個|件|倍)", re.IGNORECASE),
        definition=re.compile(r"^\s*(?:とは|は|が)[^。]*?(?:です|である|のこと|を指)"),
    ),
    quote="「{}」",
    conjunction="と",
    separator="、",
    scoped="{scope}では、{core}",
    clauses=("ドキュメントによると、{core}", "ドキュメントの説明では、{core}"),
    long="{lead}として、{purpose}。{core}",
    leads=(
        "このドキュメントを初めて読むエンジニア",
        "小さなチームでこれを導入する開発者",
        "運用を引き継いだばかりの担当者",
    ),
    purposes=(
        "本番環境で何かを変更する前に、ここを正しく理解しておきたいです",
        "チームに説明できるよう、この点をしっかり理解したいです",
        "社内向けの手順書を書いていて、細かい点まで正確にしたいです",
        "今の設定を見直していて、後で取り返しのつかないミスを避けたいです",
    ),
    poor_grammar=casual,
    misspelled=unconverted,
    spaced=False,
    role_words=("エンジニア", "開発者", "管理者", "アナリスト", "アーキテクト", "担当者", "SRE"),
    terminal="？",
    document_word="ドキュメント",
    joined="{a}。また、{b}？",
    joined_apart="{a}。また、{b}？",
    compare=(
        "{a}と{b}では、{term}の説明はどう違いますか？",
        "{term}について、{a}と{b}ではそれぞれ何と書かれていますか？",
    ),
    contrast=("{term}と{other}の違いは何ですか？", "{term}と{other}はどう違いますか？"),
    search_compare="{term} {a} {b} 違い",
    follow_ups={
        "definition": ("それは具体的に何を指しますか？", "それはどういう意味ですか？"),
        "default": ("そのデフォルト値はいくつですか？", "では、それは既定でどう設定されていますか？"),
        "duration": ("その時間はどれくらいですか？", "では、それにはどのくらいの時間が指定されていますか？"),
        "amount": ("その値はいくつですか？", "では、それにはどんな数値が指定されていますか？"),
        "requirement": ("それを使うときの注意点は何ですか？", "それにはどのような条件がありますか？"),
        "generic": (
            "それについて、ほかに知っておくべきことはありますか？",
            "ドキュメントではそれについてほかに何と書かれていますか？",
            "それはどのように動作しますか？",
        ),
    },
    back_marks=("それ", "その", "これ", "この", "あれ", "あの"),
    openers=("では", "じゃあ"),
)
