"""Japanese (ja): every word groundset has in Japanese, by part (``LANGUAGE`` at the end): offline
question templates and styles, out-of-scope aspects, persona words, refusal phrases
and negations.

Styles: poor_grammar is the casual plain form (です/ます dropped: "…は何？", "…書かれてる");
misspelled has no spelling to get wrong, so it makes the slip of an input method instead: a word of
the template left unconverted in hiragana (何 -> なに, 設定 -> せってい), or the casual form when the
template has none of those words.
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


QUESTIONS = QuestionWording(
    code="ja",
    # A situational question's situation: {lead} (the persona's role or a neutral one), {topic} (quoted).
    situations=(
        "{lead}として、今{topic}に取り組んでいます。",
        "{lead}として、今週は{topic}まわりを見直しています。",
    ),
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


# -- out-of-scope aspects (``aspects``) ------------------------------------------------------------

_W = AspectWording
_C = cjk_words
ASPECTS: tuple[Aspect, ...] = (
    Aspect("licence_price", "商用ライセンスの価格", _C(
        r"価格|料金|費用|無料|無償|有償|ライセンス|サブスクリプション|エンタープライズ|商用|オープンソース"),
        tool=_W(("{term}の商用ライセンスはいくらですか？",
                 "{term}のエンタープライズ版サブスクリプションは年間いくらですか？",
                 "{term}に有償版はありますか？サーバー1台あたりの価格はいくらですか？"),
                "{term}の商用ライセンスやサブスクリプションの価格",
                "{term}の商用ライセンスは、サーバー1台あたり年間450米ドルです。",
                "{term} 商用ライセンス 価格")),
    Aspect("support_contract", "ベンダーのサポート契約", _C(
        r"サポート契約|保守契約|商用サポート|有償サポート|サポートサービス|サービスレベル|応答時間|コンサル|"
        r"24時間365日"),
        tool=_W(("{term}の保守サポート契約を、応答時間の保証付きで販売しているベンダーはどこですか？",
                 "{term}の24時間365日の商用サポートは購入できますか？どこが提供していますか？"),
                "{term}のサポート契約の提供元と保証内容",
                "{term}の開発元が、4時間以内に応答する24時間365日のサポート契約を販売しています。",
                "{term} 商用サポート 契約")),
    Aspect("next_release", "次のメジャーリリースの予定", _C(
        r"ロードマップ|リリース(?:予定|計画|日|スケジュール|サイクル)|次期|次の(?:メジャー)?バージョン|将来のバージョン|"
        r"今後のバージョン|予定されて|廃止予定|非推奨|長期サポート"),
        tool=_W(("{term}の次のメジャーバージョンはいつリリースされますか？",
                 "{term}の次期メジャーバージョンのリリース予定日はいつですか？"),
                "{term}の次のメジャーバージョンのリリース時期",
                "{term}の次のメジャーバージョンは、現行版の6か月後の3月にリリースされます。",
                "{term} 次期バージョン リリース日"),
        concept=_W(("次のメジャーリリースで、「{term}」にはどのような変更が予定されていますか？",
                    "「{term}」は将来のバージョンで作り直されたり、廃止されたりする予定ですか？"),
                   "今後のバージョンで「{term}」に予定されている変更",
                   "次のメジャーリリースで「{term}」は作り直され、今の形式は非推奨になります。",
                   "{term} 今後の変更 予定")),
    Aspect("windows_installer", "Windows用のグラフィカルなインストーラー", _C(
        r"インストーラ|セットアップウィザード|ウィザード"),
        tool=_W(("{term}には、セットアップウィザード付きのWindows用インストーラーがありますか？",
                 "{term}は、コマンドラインではなくWindowsのグラフィカルなインストーラーでインストールできますか？"),
                "{term}のWindows用グラフィカルインストーラーの有無",
                "{term}にはMSIパッケージがあり、Windowsではセットアップウィザードでインストールできます。",
                "{term} windows インストーラー")),
    Aspect("mobile_app", "公式モバイルアプリ", _C(
        r"モバイル|スマートフォン|スマホ|携帯|タブレット|アプリ(?!ケーション)|アプリストア|"
        r"(?<![A-Za-z])(?:apps?|ios|android|iphone|ipad)(?![A-Za-z])"),
        tool=_W(("{term}を使えるiOSやAndroid向けの公式モバイルアプリはありますか？",
                 "オンコール中に、公式のスマートフォンアプリで{term}を確認できますか？"),
                "{term}の公式モバイルアプリの有無",
                "{term}の公式アプリはiOSとAndroidに対応し、状態の表示とプッシュ通知ができます。",
                "{term} スマホ アプリ")),
    Aspect("creator", "誰がいつ作ったか", _C(
        r"作成者|作者|創設|創始|発明|考案|提案|起源|歴史|由来|当初|最初に|"
        r"(?:19|20)\d\d\s*年"),
        tool=_W(("{term}を最初に作ったのは誰ですか？また、開発は何年に始まりましたか？",
                 "最初に{term}を開発した会社はどこで、最初の開発者は誰でしたか？"),
                "{term}の開発者と開発開始の時期",
                "{term}は2011年に音楽配信会社の2人のエンジニアが開発を始めました。",
                "{term} 歴史 開発者"),
        concept=_W(("「{term}」という考え方を最初に提案したのは誰ですか？それは何年ですか？",
                    "「{term}」のアイデアを最初に考えたのは、どの人物または企業ですか？"),
                   "「{term}」を最初に提案した人物と時期",
                   "「{term}」は2014年に大手検索企業のエンジニアが最初に提案しました。",
                   "{term} 起源 提案者")),
    Aspect("compliance", "コンプライアンス認証", _C(r"認証|認定|準拠|コンプライアンス|監査|適合"),
        tool=_W(("{term}はSOC 2やHIPAAの認証を取得していますか？",
                 "{term}はFedRAMPやISO 27001の第三者監査に合格していますか？"),
                "{term}のSOC 2、HIPAA、FedRAMP、ISO 27001などの認証の有無",
                "{term}はSOC 2 Type IIの認証を取得しており、HIPAAのセキュリティ要件を満たしています。",
                "{term} 認証 soc2 iso27001")),
    Aspect("telemetry", "開発元に送られる利用統計", _C(
        r"テレメトリ|利用統計|使用統計|利用状況|匿名|トラッキング|オプトアウト"),
        tool=_W(("{term}は開発元に匿名の利用統計を送信していますか？また、無効にするにはどうすればよいですか？",),
                "{term}が開発元に利用統計を送信しているかどうか",
                "{term}は1日1回匿名の利用統計を送信します。--no-telemetryオプションで無効にできます。",
                "{term} テレメトリ 無効化")),
    Aspect("adoption", "どの企業が使っているか", _C(r"企業|会社|組織|顧客|導入事例|事例|ユーザー数"),
        tool=_W(("{term}を本番環境で使っている有名な企業はどこですか？",
                 "現在、{term}を利用している組織はどのくらいありますか？"),
                "{term}を利用している企業やその数",
                "大手銀行数行を含む5,000以上の組織が{term}を本番環境で利用しています。",
                "{term} 導入企業 事例")),
    Aspect("managed_cloud", "マネージドクラウドサービスとしての料金", _C(
        r"マネージド|クラウドサービス|クラウド事業者|ホスティング|料金|価格|費用|月額|課金"),
        tool=_W(("AWSやGoogle Cloudのマネージドサービスとして{term}を使うと、月額いくらですか？",
                 "{term}をフルマネージドサービスとして提供しているクラウド事業者はどこで、料金はいくらですか？"),
                "マネージドクラウドサービスとしての{term}の料金",
                "AWSは{term}をマネージドサービスとして1時間あたり0.90ドルで提供しています。",
                "{term} マネージドサービス 料金")),
    Aspect("training", "公式トレーニングや認定試験", _C(
        r"認定|資格|認定試験|トレーニング|研修|講座|コース|ワークショップ|学習パス"),
        concept=_W(("「{term}」を扱う公式の認定試験や有料のトレーニングコースはありますか？",
                    "「{term}」を詳しく学べる公式トレーニングはどれですか？"),
                   "「{term}」を扱う公式トレーニングや認定試験の有無",
                   "公式の認定試験には「{term}」に関するモジュールがあり、配点の15%を占めます。",
                   "{term} 公式トレーニング 認定試験")),
    Aspect("benchmark", "商用製品とのベンチマーク比較", _C(
        r"ベンチマーク|性能比較|パフォーマンス比較|より速い|より高速|より遅い|と比較して|と比べて"),
        concept=_W(("公開されているベンチマークでは、「{term}」はDatadogの同等機能と比べてどうですか？",
                    "公開ベンチマークで、「{term}」はNew Relicが提供するものより速いですか？"),
                   "公開ベンチマークでの「{term}」とDatadogやNew Relicなどの製品との比較",
                   "公開ベンチマークでは、「{term}」はDatadogの同等機能より40%速いという結果でした。",
                   "{term} ベンチマーク 比較 datadog")),
    Aspect("patents", "特許と商標", _C(r"特許|商標|著作権|ライセンス|知的財産"),
        concept=_W(("「{term}」は特許で保護されていますか？",
                    "「{term}」の使い方を制限する特許や商標はありますか？"),
                   "「{term}」に関わる特許や商標の有無",
                   "2016年に出願された特許が「{term}」を対象としていますが、オープンソースプロジェクトでは無償で使えます。",
                   "{term} 特許 商標")),
)  # fmt: skip


# -- personas (``personas``) ------------------------------------------------------------------------

PERSONAS = PersonaWords(
    code="ja",
    roles={
        "Developer": "開発者",
        "SRE": "サイト信頼性エンジニア",
        "Operator": "インフラエンジニア",
        "Administrator": "システム管理者",
        "Analyst": "データアナリスト",
        "Architect": "アーキテクト",
        "Engineer": "エンジニア",
    },
    names={
        "Developer": "{topic}と連携する開発者",
        "SRE": "{topic}を見守るサイト信頼性エンジニア",
        "Operator": "{topic}を構築・運用するインフラエンジニア",
        "Administrator": "{topic}を管理するシステム管理者",
        "Analyst": "{topic}を分析するデータアナリスト",
        "Architect": "{topic}を評価するアーキテクト",
        "Engineer": "{topic}を利用するエンジニア",
    },
    described=(
        "{role}として{extra}に関わる業務を担当しており、{names}について正確な設定方法と手順を知りたいと考えている。",
        "{role}として日々{extra}を扱っており、{names}で問題が起きたときにすぐ原因を突き止めたいと考えている。",
    ),
    described_plain=(
        "{role}として、{names}について正確な設定方法と手順を知りたいと考えている。",
        "{role}として、{names}で問題が起きたときにすぐ原因を突き止めたいと考えている。",
    ),
    cues={
        "Developer": ("プラグイン", "開発", "コード", "ライブラリ", "実装", "関数", "API"),
        "SRE": ("アラート", "障害", "通知", "オンコール", "可用性", "サイレンス", "ミュート"),
        "Operator": (
            "インストール",
            "デプロイ",
            "設定",
            "ストレージ",
            "保存",
            "バックアップ",
            "サーバー",
            "ディスク",
            "保持",
            "起動",
        ),
        "Administrator": ("権限", "認証", "証明書", "パスワード", "暗号", "セキュリティ"),
        "Analyst": ("クエリ", "ダッシュボード", "グラフ", "集計", "分析", "可視化"),
        "Architect": ("設計", "アーキテクチャ", "構成", "比較", "拡張性"),
    },
    fallback_name="このドキュメントを使い始めたエンジニア",
    fallback_description="ドキュメントを読み、仕事で出てくる実際的な疑問への確かな答えを探している。",
    conjunction="と",
)


# -- refusals (``refusals``) ------------------------------------------------------------------------

_DOCS_JA = r"(?:ドキュメント|資料|文書|コンテキスト|文脈|提供された\S{0,8}?|情報源)"
_JAPANESE = [
    r"(?:記載|言及|説明|記述|掲載)(?:が|は|も)?(?:されて)?(?:い)?(?:ません|ない|ありません|なし)",
    rf"(?:(?:情報|記載|記述|資料|回答|答え|記録|言及|該当\S{{0,4}}?|関連\S{{0,4}}?|それ)(?:が|は|も)"
    rf"|{_DOCS_JA}(?:の中)?(?:に|で|から)(?:は|も)?|^|(?<=[、。\s]))(?:見つかりません|見つけられません|見当たりません)",
    r"(?:分かりません|わかりません)",
    rf"{_DOCS_JA}(?:から|では|だけでは)(?:は)?(?:不明です|(?:判断|特定|確認|断定)(?:することが|が)?できません)",
    r"(?:(?<![ァ-ヴーA-Za-z0-9一-龯])|関連する|該当する|関する|についての|詳しい|具体的な)情報(?:が|は)"
    r"(?:ありません|ない|見つかりません)",
    r"(?:お答え|回答)(?:することが)?(?:でき|出来)ません",
    r"(?:(?<![ァ-ヴーA-Za-z0-9一-龯])情報|(?:その|該当する|関連する)情報|答え|回答|記載|記述)(?:は|が|も)?"
    r"含まれて(?:い)?(?:ません|ない)",
]
# Before a Japanese claim: a conditional or causal clause, or a place that is not the material
# ("このメトリクスには"); a claim must end its clause ("記載されていないラベル" modifies a noun).
_SUBORDINATE_JA = re.compile(
    r"場合|とき|時に|ならば?|たら|れば|(?:ない|ます|です|る|た|な)(?:ので|から)|(?:ない|る|た|の)ため"
    r"|(?:^|[、。\s])(?!(?:提供された)?(?:ドキュメント|資料|文書|コンテキスト|文脈|情報源|質問|ご質問|この質問))"
    r"[^\s、。]{1,20}?には"
)
_DANGLING_JA = re.compile(
    r"^(?!\s*(?:でした|です)?\s*(?:[。．.!！?？、,）)」』\n]|$|が[、,]|けど|けれど|ね|よ|し[、,]))"
)

REFUSALS = refusal_words(
    _JAPANESE,
    r"ません|ない|なし|不明",
    _SUBORDINATE_JA,
    dangling=_DANGLING_JA,
    guess=r"(?:が|けど|けれども?)[、,]?\s*(?:おそらく|たぶん|多分|恐らく|きっと)|と思(?:います|われます)",
)


# -- negations (``negations``) ----------------------------------------------------------------------

NEGATIONS = word_set("ない ません なかった なし 無い ず ぬ")


LANGUAGE = Language(
    code="ja",
    name="Japanese",
    questions=QUESTIONS,
    aspects=ASPECTS,
    refusal_form="ドキュメントには{missing}についての記載がありません。",
    personas=PERSONAS,
    refusals=REFUSALS,
    negations=NEGATIONS,
    falls_back={
        "noun_articles": "none needed: Japanese terms are checked by their script and frequency",
        "sentences": "Japanese ends a sentence at 。！？ whatever precedes it; a period only matters in "
        "embedded English, read with the English abbreviations",
    },
)
