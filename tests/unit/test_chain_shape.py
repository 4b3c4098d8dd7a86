# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.
"""A chain's shape by release, length and setting (chain_shape)."""

from heat_lifecycle_plugins.resources import chain_segments as cs
from heat_lifecycle_plugins.resources import chain_shape as shape


def test_the_flat_size_survives_its_operations_within_the_budget():
    n = shape.FLAT_SIZE
    cost = shape.THREADS_PER_MEMBER * n + shape.THREADS_PER_OPERATION
    assert shape.OPERATIONS * cost <= shape.THREAD_BUDGET
    assert shape.OPERATIONS * (cost + shape.THREADS_PER_MEMBER) > (
        shape.THREAD_BUDGET)


def test_no_segments_without_a_thread_budget():
    # Heat 24.x: one nested stack whatever the length.
    for count in (1, 50, 51, shape.FLAT_SIZE + 1, 2000):
        assert not shape.is_segmented(count, None, thread_budget=False)
    assert shape.limits(None, False) == (0, 0)


def test_with_a_budget_segments_start_above_the_flat_size():
    assert not shape.is_segmented(shape.FLAT_SIZE, None, True)
    assert shape.is_segmented(shape.FLAT_SIZE + 1, None, True)
    # The benchmarks' sizes are one nested stack, as in-tree's.
    assert not shape.is_segmented(100, None, True)
    assert not shape.is_segmented(150, None, True)
    assert shape.limits(None, True) == (shape.FLAT_SIZE, shape.SEGMENT_SIZE)


def test_a_set_size_keeps_its_old_meaning_on_every_release():
    for budget in (True, False):
        assert not shape.is_segmented(50, 50, budget)
        assert shape.is_segmented(51, 50, budget)
        assert not shape.is_segmented(5000, 0, budget)
        assert shape.limits(50, budget) == (50, 50)


def test_a_chain_over_the_flat_size_is_split_into_segments_of_50():
    flat, size = shape.limits(None, True)
    assert cs.initial_segments(flat, size, flat) is None
    segments = cs.initial_segments(flat + 1, size, flat)
    counts = [segments.count(s) for s in cs.segment_order(segments)]
    assert max(counts) <= shape.SEGMENT_SIZE
    assert len(counts) == -(-(flat + 1) // shape.SEGMENT_SIZE)
    assert cs.initial_segments(2000, *shape.limits(None, False)) is None


def test_a_flat_chain_grows_into_segments_only_past_the_flat_size():
    flat = shape.FLAT_SIZE
    assert not shape.grows_into_segments(flat, None, True)
    assert shape.grows_into_segments(flat + 1, None, True)
    # Heat 24.x: it stays flat, set size or not.
    assert not shape.grows_into_segments(2000, None, False)
    assert not shape.grows_into_segments(2000, 50, False)
    assert shape.grows_into_segments(51, 50, True)
    assert not shape.grows_into_segments(2000, 0, True)
