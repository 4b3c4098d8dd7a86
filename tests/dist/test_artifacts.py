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
"""The sdist and the wheel hold what the package needs at run time."""

import configparser
import email.parser
import os
import re
import subprocess
import tarfile

import pytest

from tests.dist.conftest import CHECKOUT

PACKAGE = 'heat_lifecycle_plugins/'
# Never required by the wheel itself: the heat-engine host brings Heat (and
# with it python-mistralclient); the extras bring the clients.
SERVER_SIDE = {'openstack-heat', 'mistral', 'keystone', 'openstacksdk',
               'python-heatclient', 'python-mistralclient'}
TYPES = {'OS::Heat::SoftwareComponent', 'OS::Heat::SoftwareDeployment',
         'OS::Heat::ResourceChain', 'OS::Mistral::ExternalResource'}


def source_root():
    """A git checkout of the project: matrix.py's, or this test's own."""
    root = os.environ.get('HLP_SOURCE_ROOT', CHECKOUT)
    if not os.path.isdir(os.path.join(root, '.git')):
        pytest.skip('no git checkout to compare with')
    return root


def package_files_in_git(package=PACKAGE):
    out = subprocess.run(['git', 'ls-files', package], cwd=source_root(),
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def wheel_package_files(wheel_zip, package=PACKAGE):
    return {n for n in wheel_zip.namelist() if n.startswith(package)}


def dist_info(wheel_zip, name):
    [path] = [n for n in wheel_zip.namelist()
              if re.fullmatch(r'[^/]+\.dist-info/' + name, n)]
    return wheel_zip.read(path).decode()


def test_the_wheel_holds_every_file_of_the_package(wheel_zip):
    missing = package_files_in_git() - wheel_package_files(wheel_zip)
    assert not missing


def test_the_wheel_holds_the_dashboard_with_its_templates(wheel_zip):
    dashboard = 'heat_lifecycle_dashboard/'
    shipped = wheel_package_files(wheel_zip, dashboard)
    assert not package_files_in_git(dashboard) - shipped
    assert dashboard + 'enabled/_1690_lifecycle_tab.py' in shipped
    assert any(n.endswith('.html') for n in shipped)
    metadata = email.parser.Parser().parsestr(dist_info(wheel_zip,
                                                        'METADATA'))
    assert 'dashboard' in metadata.get_all('Provides-Extra')


def test_the_sdist_holds_every_file_of_the_package(sdist):
    with tarfile.open(sdist) as tar:
        names = {n.split('/', 1)[1] for n in tar.getnames() if '/' in n}
    assert not package_files_in_git() - names


def test_the_sdist_builds_with_pbrs_backend(sdist):
    # A PEP 517 frontend (pip, build) reads the backend from pyproject.toml.
    with tarfile.open(sdist) as tar:
        [member] = [m for m in tar.getmembers()
                    if m.name.count('/') == 1 and
                    m.name.endswith('/pyproject.toml')]
        text = tar.extractfile(member).read().decode()
    assert re.search(r'^build-backend = "pbr.build"$', text, re.M), text


def test_the_wheel_holds_no_test_support(wheel_zip):
    tops = {n.split('/')[0] for n in wheel_zip.namelist()}
    assert 'heat_lifecycle_fixtures' not in tops
    assert 'tests' not in tops
    assert 'benchmarks' not in tops


def test_the_agent_hook_is_shipped_executable(wheel_zip):
    info = wheel_zip.getinfo(PACKAGE + 'agent/hooks/script')
    assert (info.external_attr >> 16) & 0o111, oct(info.external_attr >> 16)


def test_the_samples_are_shipped(wheel_zip):
    data = {n.split('.data/data/', 1)[1] for n in wheel_zip.namelist()
            if '.data/data/' in n}
    examples = {n for n in data
                if n.startswith('share/heat-lifecycle-plugins/examples/')}
    assert 'share/heat-lifecycle-plugins/examples/software_component.yaml' \
        in examples
    assert ('share/heat-lifecycle-plugins/oslo-config-generator/'
            'heat-lifecycle-plugins.conf') in data


def test_the_licence_is_shipped(wheel_zip):
    text = dist_info(wheel_zip, 'LICENSE')
    assert 'Apache License' in text and 'Version 2.0' in text
    metadata = email.parser.Parser().parsestr(dist_info(wheel_zip,
                                                        'METADATA'))
    assert metadata['License'] == 'Apache-2.0'


def test_entry_points_declare_every_type_and_command(wheel_zip):
    points = configparser.ConfigParser(delimiters=('=',))
    points.optionxform = str
    points.read_string(dist_info(wheel_zip, 'entry_points.txt'))
    assert set(points['heat_lifecycle_plugins.resources']) == TYPES
    assert {'heat-lifecycle-plugins', 'heat-lifecycle-agent',
            'heat-lifecycle-progress', 'heat-lifecycle-dashboard-check'} <= \
        set(points['console_scripts'])
    assert {'heat_lifecycle_plugins', 'heat_lifecycle_agent'} <= set(
        points['oslo.config.opts'])
    # The OpenStackClient plugin and its command group of our own.
    assert dict(points['openstack.cli.extension']) == {
        'lifecycle': 'heat_lifecycle_plugins.osc.plugin'}
    assert set(points['openstack.lifecycle.v1']) == {
        'lifecycle_cause_list', 'lifecycle_action_run',
        'lifecycle_progress_list', 'lifecycle_progress_watch'}


def test_the_client_extra_leaves_openstackclient_to_the_user(wheel_zip):
    metadata = email.parser.Parser().parsestr(dist_info(wheel_zip,
                                                        'METADATA'))
    client = {re.split(r'[<>=!~;\[ ]', r)[0].lower()
              for r in metadata.get_all('Requires-Dist')
              if 'extra == "client"' in r}
    assert {'python-heatclient', 'osc-lib', 'openstacksdk'} <= client
    assert 'python-openstackclient' not in client


def test_unconditional_requirements_leave_out_the_server_side(wheel_zip):
    metadata = email.parser.Parser().parsestr(dist_info(wheel_zip,
                                                        'METADATA'))
    required = {re.split(r'[<>=!~;\[ ]', r)[0].lower()
                for r in metadata.get_all('Requires-Dist')
                if 'extra ==' not in r}
    assert required and not required & SERVER_SIDE, required
    extras = set(metadata.get_all('Provides-Extra'))
    assert {'agent', 'client'} <= extras


def test_the_tiers_import_the_installed_wheel():
    """In matrix.py's installed-wheel tiers, nothing of the tree leaks in."""
    if not os.environ.get('HLP_INSTALLED_WHEEL'):
        pytest.skip('run from the tree, not an installed-wheel tier')
    import heat_lifecycle_plugins
    where = os.path.realpath(heat_lifecycle_plugins.__file__)
    assert '/site-packages/' in where, where
