"""The judges behind the agent goal metrics: infer the user's goal and the end state, then a verdict.

Goal and end state come before the verdict in the answer, so the judge commits to what the user wanted
and what was actually done before it decides; both go into the trace, where a person can check them.
There is no offline form: telling what a user wanted and whether a conversation delivered it is reading
comprehension, and no word count stands in for it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ...core.prompts import Prompt


class Conversation(BaseModel):
    conversation: str = Field(description="the conversation, one numbered line per turn or tool call")


class ConversationAndOutcome(BaseModel):
    conversation: str = Field(description="the conversation, one numbered line per turn or tool call")
    reference: str = Field(description="the outcome the conversation should have reached")


class GoalJudgement(BaseModel):
    user_goal: str = Field(description="what the user wanted done by the end, in one sentence")
    end_state: str = Field(description="what had actually been done or established when it ended")
    reason: str = Field(default="", description="one or two short sentences on the verdict")
    achieved: bool = Field(description="the verdict, as the instruction defines it")


_READING = (
    "You review a conversation between a user and an AI assistant that can call tools. Lines marked "
    "'calls' are tool calls the assistant made, with their arguments; 'Tool result' lines are what the "
    "tools returned. First write user_goal: what the user wanted to have done by the end of the "
    "conversation, in one sentence; when the user changed or added to the request, the final version "
    "counts. Then write end_state: what had really been done or established when the conversation "
    "ended, judged from the tool results and the assistant's messages together. An action counts only "
    "if a tool result shows it happened or the assistant reports a result it was given; a promise, a "
    "plan, a failed call or a claim the tool results contradict counts for nothing. "
)


class GoalWithoutReference(Prompt[Conversation, GoalJudgement]):
    name = "scoring.agent_goal.without_reference"
    instruction = _READING + (
        "Then give a short reason and the verdict: achieved is true only when the end state delivers "
        "everything the goal asks for; false when a part is missing, wrong, refused, or only promised."
    )
    examples = [
        (
            Conversation(
                conversation=(
                    "[1] User: Move my dentist appointment from Tuesday to Thursday, same time.\n"
                    '[2] Assistant calls find_appointment (c1) with {"day": "tuesday", "kind": "dentist"}\n'
                    '[3] Tool result for c1: {"id": 88, "time": "10:30"}\n'
                    '[4] Assistant calls reschedule (c2) with {"day": "thursday", "id": 88, '
                    '"time": "10:30"}\n'
                    '[5] Tool result for c2: {"error": "slot taken"}\n'
                    "[6] Assistant: Done! Your appointment is now on Thursday at 10:30."
                )
            ),
            GoalJudgement(
                user_goal="Move the dentist appointment from Tuesday to Thursday at the same time.",
                end_state="The reschedule call failed (slot taken); the appointment is still on Tuesday.",
                reason="The assistant claims success, but the tool result shows the move did not happen.",
                achieved=False,
            ),
        )
    ]


class GoalWithReference(Prompt[ConversationAndOutcome, GoalJudgement]):
    name = "scoring.agent_goal.with_reference"
    instruction = _READING + (
        "Then compare the end state with the reference, the outcome the conversation should have "
        "reached. Give a short reason and the verdict: achieved is true when the end state matches the "
        "reference on every point the reference states (other words are fine, and details the reference "
        "does not mention do not matter); false when it misses, changes or contradicts any of them."
    )
    examples = [
        (
            ConversationAndOutcome(
                conversation=(
                    "[1] User: Order two bags of the dark roast coffee, delivered to my office.\n"
                    '[2] Assistant calls place_order (c1) with {"address": "office", "item": '
                    '"dark roast", "quantity": 2}\n'
                    '[3] Tool result for c1: {"order": "A-17", "status": "confirmed"}\n'
                    "[4] Assistant: Order A-17 is confirmed: two bags of dark roast to your office."
                ),
                reference="An order for two bags of dark roast coffee to the office address is confirmed.",
            ),
            GoalJudgement(
                user_goal="Order two bags of dark roast coffee delivered to the office.",
                end_state="Order A-17 for two bags of dark roast to the office is confirmed by the tool.",
                reason="The confirmed order matches the reference in item, quantity and address.",
                achieved=True,
            ),
        )
    ]
