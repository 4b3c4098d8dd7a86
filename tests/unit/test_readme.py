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
"""README.rst is valid reStructuredText, a front door whose links lead
somewhere, and the guides show each example as it is."""

import os
import re

import docutils.core
import docutils.utils
import pytest

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
EXAMPLES = ['software_component.yaml', 'resource_chain.yaml',
            'external_resource.yaml', 'external_resource_workflows.yaml',
            'agent.yaml', 'day_two.yaml', 'day_two_external_resource.yaml']
# The markers tools/matrix.py and the fault tier write between.
MARKERS = ['support-table', 'reliability-table']


def read(*path):
    with open(os.path.join(ROOT, *path)) as f:
        return f.read()


def test_readme_is_valid_restructuredtext():
    try:
        docutils.core.publish_doctree(
            read('README.rst'),
            settings_overrides={
                'halt_level': docutils.utils.Reporter.WARNING_LEVEL,
                'report_level': 5})
    except docutils.utils.SystemMessage as exc:
        pytest.fail('README.rst: %s' % exc)


def test_readme_links_to_files_that_exist():
    links = re.findall(r'<([^<>:]+\.rst)>`_', read('README.rst'))
    assert links
    missing = [link for link in links
               if not os.path.exists(os.path.join(ROOT, link))]
    assert not missing, 'README.rst links to missing files: %s' % missing


@pytest.mark.parametrize('marker', MARKERS)
def test_readme_keeps_the_generated_table_markers(marker):
    readme = read('README.rst')
    start = readme.index('.. %s-start' % marker)
    assert start < readme.index('.. %s-end' % marker)


def _guides():
    for folder, _, files in os.walk(os.path.join(ROOT, 'doc', 'source')):
        for name in files:
            if name.endswith('.rst'):
                with open(os.path.join(folder, name)) as f:
                    yield f.read()


@pytest.mark.parametrize('example', EXAMPLES)
def test_a_guide_includes_the_example_as_it_is(example):
    include = '.. literalinclude:: ../../../examples/%s' % example
    assert any(include in text for text in _guides()), (
        'no page of doc/source includes examples/%s' % example)
