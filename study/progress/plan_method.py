"""How today's plan is computed, in words, apart from the code: `study --help` builds the plan command's
description from it without importing the store and the scheduler."""

PLAN_METHOD = (
    "Today's plan: reviews are the cards and questions due by the end of today. New questions fill your "
    "daily goal (questions answered a day) after today's answers and question reviews, within the new-items-"
    "a-day limit, on the objectives where an hour raises your expected score most. Minutes = questions x your "
    "median seconds per answer + cards x your median seconds per card rating (your last 200 of each; "
    "2 minutes and 20 seconds until you have 10). On track: at that many new questions a day you will have "
    "seen every question before the exam date."
)
