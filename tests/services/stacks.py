"""Driving stacks through python-heatclient as a user does: waiting for an
action to end, reading events as a readable timeline."""

import time

TERMINAL = ('COMPLETE', 'FAILED')


class StackFailed(AssertionError):
    """A stack action ended otherwise than expected (or not in time)."""


def wait(hc, stack_id, action, expect='COMPLETE', timeout=300,
         on_poll=None):
    """Poll until the stack's `action` ends; return the stack.

    Raises StackFailed if it ended other than `expect` (None: any end).
    on_poll(stack) is called on every poll (the demo prints progress).
    """
    deadline = time.time() + timeout
    while True:
        try:
            stack = hc.stacks.get(stack_id)
        except Exception as exc:
            if action == 'DELETE' and 'could not be found' in str(exc):
                return None
            raise
        if on_poll is not None:
            on_poll(stack)
        if stack.action == action and stack.status in TERMINAL:
            if expect and stack.status != expect:
                raise StackFailed('%s %s_%s: %s' % (
                    stack.stack_name, action, stack.status,
                    stack.stack_status_reason))
            return stack
        if action == 'DELETE' and stack.stack_status == 'DELETE_COMPLETE':
            return stack
        if time.time() > deadline:
            raise StackFailed('%s: %s did not end in %ss (%s: %s)' % (
                stack.stack_name, action, timeout, stack.stack_status,
                stack.stack_status_reason))
        time.sleep(0.5)


def events(hc, stack_id, nested_depth=3):
    """All events of the stack and its nested stacks, oldest first."""
    found = hc.events.list(stack_id, nested_depth=nested_depth,
                           sort_dir='asc', sort_keys='created_at')
    # Stable: events of the same second keep the order the API gave them.
    return sorted(found, key=lambda e: e.event_time)


def describe_event(event):
    return '%s %-28s %-24s %s' % (
        event.event_time, event.resource_name,
        event.resource_status, event.resource_status_reason or '')


def timeline(hc, stack_id, seen=None):
    """Lines for the events not in `seen` (a set of event ids, updated)."""
    lines = []
    for event in events(hc, stack_id):
        if seen is not None:
            if event.id in seen:
                continue
            seen.add(event.id)
        lines.append(describe_event(event))
    return lines
