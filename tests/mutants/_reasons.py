"""Reasons that several contracts give for an extra (tests/mutants/_contract.py).

A mutant's contract says why it fails each rule beyond those it breaks; a
reason given for more than one rule, or by more than one mutant, is written
once here, and a mutant module names it as ``reasons.KWARGS``. A reason given
once stays in its mutant's contract. "The example" is one of the rule's
examples; "the probe" one of its probes.
"""

# what a rule's examples do, which the mutation spoils
KWARGS = "the example forks with keyword arguments, which never arrive"
LAMBDA = "the example forks a lambda"
SIDE_EFFECTS_TWICE = "the example counts the task's side effects, which happen twice"
NEEDS_EARLY_RETURN = "the example needs fork to return before its task ends"
NO_RAISE = "the example expects wait to raise"
LOOKS_DONE = "the example's future looks done while its task runs, so then and wait_all read it"
NO_FUTURE_METHODS = "the example uses the wait() method of fork's result, which the handle lacks"
FAILED_FUTURE = "the example gets a failed future out of scripted code, which fork now raises"
EXCEPTION_AS_VALUE = "the example sets an exception on a created future and expects it raised"
NEW_INPUT = "the example calls the traced function on a new input"
LOOKS_FOR_FORK_NODE = "the example looks for the fork node"

# what a rule's probes do, which the mutation spoils
TWO_POSITIONAL = "the probe forks with two positional arguments"
NO_PROBED_METHODS = "the probe calls then or value() on fork's result, which the handle lacks"
SCRIPTED_BY_KEYWORD = "the probe forks a scripted function by keyword from scripted code"
MANY_WAITERS = "the probe has 16 threads blocked on the future while it is completed"
WAITS_TWICE_ON_FAILURE = "its probe waits twice on the failed future"
TASK_WAITS_ON_NON_FUTURE = "the probe's task waits on a non-future"
SUBTASK_FAILURES = "the probe's failures come up through tasks that wait on them"
UNWAITED_CHILDREN = "the probe's tasks fork children that nobody waits on"
HELD_PAST_FORK = "the probe holds tasks until after fork returns, which fork waits out"
DEFERRED_HELPERS = "the probe's helpers that return nothing (set a variable, note a line) run late"
TWICE_SEEN = "the probe's tasks record what they see, and each runs twice"
MORE_WAITERS = (
    "the probe's tasks wait on subtasks they forked, more at once than the pool's threads"
)
ON_THE_STACK = "the probe's chain of 1,000 nested forks recurses on one stack: RecursionError"
FAILED_FORKED = "its probe waits on futures of failing tasks forked by scripted code"
FORK_RAISES_FAILED_FORKED = FAILED_FORKED + ": its fork raises their failure"
WAITS_AGAIN_IN_A_TASK = (
    "its probe 3 forks a task given a failing task's future, which that task waits on"
)
FAILS_AT_FORK = "a generated program's failing task makes its fork raise, not its wait"

# what the mutation does to any program that meets it
CHAIN_TWICE = "a chain of 1,000 nested forks, each task run twice, is 2**1000 runs: it times out"
NESTED_RUNTIME_ERROR = "a failure that comes up through a task's wait is a new RuntimeError"
TASK_FORKS_IN_ITS_CONTEXT = "a task's fork runs in the task's own context, not a copy"
UNWAITED_NEVER_STARTS = "a task nobody waits on never starts"
PREVIOUS_FUTURE_AS_ARGUMENT = "its probe hands each task the previous task's future as an argument"

#: measured on the whole spec after this change's probes
DEAD_WORKERS_AFTER_BASE_EXCEPTIONS = (
    "its probes' BaseExceptions end workers, and the waits after them find no worker "
    "left (measured on the whole spec)"
)
#: measured on the whole spec after this change's probes
POLLS_DONE_ON_FAILED = (
    "their probes poll done() on a failed future before they wait (measured on the whole spec)"
)
#: measured on the whole spec after this change's probes
DONE_AFTER_BASE_EXCEPTION = (
    "their probes check done() on futures failed by a BaseException (measured on the whole spec)"
)
#: measured on the whole spec after this change's probes
TASKS_RAN_BEFORE_ANY_WAIT = (
    "their probes check that tasks ran before anything waits on them (measured on the whole spec)"
)
#: measured on the whole spec after this change's probes
HELD_TASKS_BESIDE_OTHERS = (
    "their probes hold tasks while others must run (measured on the whole spec)"
)
#: measured on the whole spec after this change's probes
COUNTS_INTERLEAVINGS = (
    "its probe counts the interleavings that distinct names give (measured on the whole spec)"
)
#: measured on the whole spec after this change's probes
GENERATED_BODIES_WITHOUT_TENSORS = (
    "its generated programs, drawn at random, trace bodies that return no tensor in some runs"
)
#: measured on the whole spec after this change's probes
COMPLETIONS_RACE_THE_UNLOCK = "its deepest probe's 20,000 completions race the same unlock"
#: measured on the whole spec after this change's probes
THREAD_PER_TASK_UNDER_LOAD = (
    "a thread per task: under the mutant runs' load its deepest probes (10,000 tasks, "
    "20,000 round trips) can pass the deadline"
)
