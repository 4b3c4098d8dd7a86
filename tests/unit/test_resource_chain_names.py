"""plan_member_names: which members an edit of the type list keeps."""

from heat_lifecycle_plugins.resources.resource_chain import plan_member_names

OLD_TYPES = ['A', 'B', 'C']
OLD_NAMES = ['0', '1', '2']


def plan(new_types, old_types=OLD_TYPES, old_names=OLD_NAMES):
    return plan_member_names(old_types, old_names, new_types)


def test_unchanged_list_keeps_every_name():
    assert plan(['A', 'B', 'C']) == ['0', '1', '2']


def test_insert_mid_list_adds_one_fresh_name():
    assert plan(['A', 'X', 'B', 'C']) == ['0', '3', '1', '2']


def test_remove_mid_list_keeps_the_others():
    assert plan(['A', 'C']) == ['0', '2']


def test_reorder_keeps_every_name():
    assert plan(['C', 'A', 'B']) == ['2', '0', '1']


def test_changed_type_gets_a_fresh_name():
    assert plan(['A', 'Y', 'C']) == ['0', '3', '2']


def test_duplicates_match_in_order():
    assert plan(['A', 'A'], ['A', 'B', 'A'], ['0', '1', '2']) == ['0', '2']
    assert plan(['A', 'A', 'A'], ['A', 'A'], ['0', '5']) == ['0', '5', '6']


def test_fresh_names_never_reuse_a_current_name():
    assert plan(['X', 'Y'], ['A', 'B'], ['7', '3']) == ['8', '9']


def test_from_and_to_an_empty_chain():
    assert plan([], OLD_TYPES, OLD_NAMES) == []
    assert plan(['A', 'B'], [], []) == ['0', '1']
