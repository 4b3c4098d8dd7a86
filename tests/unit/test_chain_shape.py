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


def test_segments_start_above_the_flat_size_on_every_release():
    assert not shape.is_segmented(shape.FLAT_SIZE, None)
    assert shape.is_segmented(shape.FLAT_SIZE + 1, None)
    # The benchmarks' sizes up to 150 are one nested stack, as in-tree's;
    # 400 and 2000 are segments (on 24.x too: faster there, see chain_shape).
    assert not shape.is_segmented(100, None)
    assert not shape.is_segmented(150, None)
    assert shape.is_segmented(400, None)
    assert shape.is_segmented(2000, None)
    assert shape.limits(None) == (shape.FLAT_SIZE, shape.SEGMENT_SIZE)


def test_a_set_size_keeps_its_old_meaning():
    assert not shape.is_segmented(50, 50)
    assert shape.is_segmented(51, 50)
    assert not shape.is_segmented(5000, 0)
    assert shape.limits(50) == (50, 50)


def test_a_chain_over_the_flat_size_is_split_into_segments_of_50():
    flat, size = shape.limits(None)
    assert cs.initial_segments(flat, size, flat) is None
    segments = cs.initial_segments(flat + 1, size, flat)
    counts = [segments.count(s) for s in cs.segment_order(segments)]
    assert max(counts) <= shape.SEGMENT_SIZE
    assert len(counts) == -(-(flat + 1) // shape.SEGMENT_SIZE)
    assert cs.initial_segments(2000, *shape.limits(0)) is None


def test_a_flat_chain_grows_into_segments_where_a_new_one_is_split():
    # resource_chain asks is_segmented of the grown length.
    flat = shape.FLAT_SIZE
    assert not shape.is_segmented(flat, None)
    assert shape.is_segmented(flat + 1, None)
    assert shape.is_segmented(2000, None)
    assert shape.is_segmented(51, 50)
    assert not shape.is_segmented(2000, 0)
