"""LLM SQL equivalence: does the generated query (``response``) return what the reference query returns?

The judge explains what each query does over the schema (the sample's ``reference_contexts``,
joined) and then decides: 1 equivalent, 0 not. Queries that are the same text after a conservative
normalisation are equivalent without a call. Offline that normalisation is all there is: 1.0 for
identical queries, NaN for any other pair (telling two different queries apart needs a reader of
SQL; a false 0 would punish a correct rewrite).

The normalisation never merges two queries that could differ: string literals, quoted identifiers
and comments are kept exactly as written; runs of whitespace become one space, but whether two
tokens were separated by whitespace is kept (MySQL reads ``COUNT (*)`` differently from ``COUNT(*)``);
line comments keep their line end; only reserved words are upper-cased (an unreserved word may name a
table, and MySQL table names can be case-sensitive); trailing semicolons are dropped. A query with a
backslash only loses its trailing semicolons (see ``normalise_sql``).
"""

from __future__ import annotations

import re
from collections import Counter

from pydantic import BaseModel, Field

from ...core.models import is_offline
from ...core.prompts import Prompt
from ...languages.words import word_set
from ...samples.evaluation import SingleTurnSample
from ..metric import Metric, MetricResult, OutputType, ScoringContext

# Upper-cased by the normalisation: words reserved in both MySQL (whose table names can be case-sensitive)
# and SQL Server (all of whose names are, under a case-sensitive collation), so never an unquoted name
# there; PostgreSQL and SQLite fold the case of unquoted names anyway.
RESERVED = word_set(
    "select from where and or not in is null like between join inner left right outer cross on as group "
    "by order having distinct union all exists case when then else asc desc insert into values update "
    "set delete with"
)
# Keywords only when a number follows: no valid query has a name there ("LIMIT 10", "TOP 5").
BEFORE_NUMBER = word_set("limit offset top")
_SPACE = " \t\r\n\f\v"  # SQL whitespace; other Unicode spaces stay tokens of their own
_TOKEN = re.compile(
    r"""
      '(?:''|[^'])*(?:'|\Z)             # a string literal (an unterminated one runs to the end)
    | "(?:""|[^"])*(?:"|\Z)             # a quoted identifier (or a MySQL string)
    | `(?:``|[^`])*(?:`|\Z)             # a MySQL identifier
    | \[[^\]]*(?:\]|\Z)                # a SQL Server identifier
    | \$\$.*?(?:\$\$|\Z)                # a PostgreSQL dollar-quoted string
    | \$(?P<tag>[^\W\d]\w*)\$.*?(?:\$(?P=tag)\$|\Z)
    | (?:--|\#)[^\n]*                    # a line comment (# in MySQL)
    | /\*.*?(?:\*/|\Z)                   # a block comment
    | [^\W\d][\w$]*                      # a word
    | \d+(?:\.\d*)?(?:[eE][+-]?\d+)? | \.\d+
    | <>|<=|>=|!=|::|\|\||<<|>>|->>|->
    | [^ \t\r\n\f\v]
    """,
    re.VERBOSE | re.DOTALL,
)
_LINE_COMMENT = ("--", "#")
_WORD = re.compile(r"[^\W\d][\w$]*")


def normalise_sql(query: str) -> str:
    """The query with whitespace runs collapsed, reserved words upper-cased and trailing ';' dropped
    (see the module docstring for what is kept exactly as written). A query with a backslash loses
    only its trailing semicolons: dialects disagree on whether a backslash escapes a quote, so where
    a literal ends is not certain there."""
    text = query.strip(_SPACE)
    if "\\" in text:
        return text.rstrip(_SPACE + ";")
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[str] = []
    for i, (token, start, _) in enumerate(tokens):
        if i and start > tokens[i - 1][2] and not out[-1].endswith("\n"):
            out.append(" ")
        following = tokens[i + 1][0] if i + 1 < len(tokens) else ""
        if _WORD.fullmatch(token) and _keyword(token.casefold(), following):
            token = token.upper()
        elif token.startswith(_LINE_COMMENT):
            token = token.rstrip(_SPACE) + "\n"
        out.append(token)
    while out and out[-1] in (";", " "):
        out.pop()
    return "".join(out)


def _keyword(word: str, following: str) -> bool:
    return word in RESERVED or (word in BEFORE_NUMBER and following[:1].isdigit())


class SqlQueries(BaseModel):
    database_schema: str = Field(description="the database schema (table definitions), if given")
    response: str = Field(description="the query to judge")
    reference: str = Field(description="the reference query, known to be correct")


class SqlJudgement(BaseModel):
    # Explanations first: a model that has said what each query does decides better.
    response_explanation: str = Field(description="what the response query returns, in plain words")
    reference_explanation: str = Field(description="what the reference query returns, in plain words")
    reason: str = Field(description="why the two are or are not equivalent, in one or two sentences")
    equivalent: bool = Field(description="true if both return the same result on every database state")


class SqlEquivalencePrompt(Prompt[SqlQueries, SqlJudgement]):
    name = "scoring.sql_equivalence"
    instruction = (
        "You review SQL. Given the schema and two queries, first say in plain words what each query "
        "returns: which rows, which columns, in what order if the order is fixed. Then decide whether "
        "the two are equivalent: they return the same result for every possible content of the "
        "tables in the schema, including NULLs, duplicates and empty tables. Different joins, aliases, "
        "subqueries or layout are fine when the result is the same; a missing filter, another column, "
        "another aggregate or different duplicate handling is not. Where the schema constrains data "
        "(keys, NOT NULL, uniqueness), you may rely on it."
    )
    examples = [
        (
            SqlQueries(
                database_schema="CREATE TABLE staff (id INT PRIMARY KEY, name TEXT, team_id INT);\n"
                "CREATE TABLE team (id INT PRIMARY KEY, city TEXT);",
                response="SELECT s.name FROM staff s JOIN team t ON s.team_id = t.id WHERE t.city = 'Oslo'",
                reference="SELECT name FROM staff WHERE team_id IN (SELECT id FROM team WHERE city = 'Oslo')",
            ),
            SqlJudgement(
                response_explanation="Names of staff whose team is in Oslo, via a join on the team id.",
                reference_explanation="Names of staff whose team id is among the ids of Oslo teams.",
                reason="team.id is a primary key, so the join matches each staff row at most once: the "
                "same rows with the same duplicates.",
                equivalent=True,
            ),
        ),
        (
            SqlQueries(
                database_schema="CREATE TABLE orders (id INT PRIMARY KEY, customer TEXT, total NUMERIC);",
                response="SELECT customer, COUNT(*) FROM orders GROUP BY customer",
                reference="SELECT customer, SUM(total) FROM orders GROUP BY customer",
            ),
            SqlJudgement(
                response_explanation="Each customer with the number of their orders.",
                reference_explanation="Each customer with the sum of their order totals.",
                reason="One counts orders, the other adds up totals: different values.",
                equivalent=False,
            ),
        ),
    ]


class LLMSQLEquivalence(Metric):
    """1 when the response query is equivalent to the reference query over the schema, else 0."""

    name = "llm_sql_equivalence"
    columns = ("response", "reference", "reference_contexts:optional")
    output_type = OutputType.BINARY
    needs_llm = True
    offline_measures = (
        "identity: 1.0 only when the two queries are the same after normalising whitespace, reserved-word "
        "case and trailing semicolons; NaN for any other pair (never a 0)"
    )

    async def _ascore(self, sample: SingleTurnSample, ctx: ScoringContext) -> MetricResult:
        reference = (sample.reference or "").strip()
        response = (sample.response or "").strip()
        if not reference:
            return MetricResult.nan("the reference query is empty: nothing to compare the response with")
        if not response:
            return MetricResult(0.0, "the response query is empty: it returns nothing the reference does")
        if normalise_sql(response) == normalise_sql(reference):
            return MetricResult(1.0, "the queries are the same after normalising layout and keyword case")
        if is_offline(ctx.llm):
            return MetricResult.nan("offline: cannot judge equivalence of different queries")
        schema = "\n\n".join(c for c in sample.reference_contexts or [] if c.strip())
        data = SqlQueries(database_schema=schema, response=response, reference=reference)
        prompt = SqlEquivalencePrompt().with_guidance(ctx.guidance)
        answer = await prompt.run(ctx.llm, data, n=self.strictness, engine=ctx.engine, stage=self.stage)
        votes = answer if isinstance(answer, list) else [answer]
        (winner, count), *_ = Counter(v.equivalent for v in votes).most_common(1)
        chosen = next(v for v in votes if v.equivalent == winner)
        trace = {
            "response_explanation": chosen.response_explanation,
            "reference_explanation": chosen.reference_explanation,
            "reason": chosen.reason,
        }
        if self.strictness > 1:
            trace["agreement"] = count / len(votes)
        if not schema:
            trace["schema"] = "none given"
        verdict = "equivalent" if winner else "not equivalent"
        return MetricResult(1.0 if winner else 0.0, f"{verdict}: {chosen.reason}", trace)
