"""README.rst is valid reStructuredText and shows each example as it is."""

import os

import docutils.core
import docutils.utils
import pytest

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
EXAMPLES = ['software_component.yaml', 'resource_chain.yaml',
            'external_resource.yaml', 'agent.yaml']


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


@pytest.mark.parametrize('example', EXAMPLES)
def test_readme_shows_the_example_verbatim(example):
    readme = read('README.rst')
    lines = read('examples', example).splitlines(True)
    blocks = [''.join(indent + line if line.strip() else '\n'
                      for line in lines) for indent in ('   ', '    ')]
    assert any(block in readme for block in blocks), (
        'README.rst does not show examples/%s as it is' % example)
