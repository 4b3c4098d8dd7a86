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
"""The heat-lifecycle-plugins demo: a loopback cloud, the examples deployed.

Brings up MariaDB, RabbitMQ, Keystone, Mistral, heat-engine (our loader in
plugin_dirs), heat-api and heat-api-cfn on 127.0.0.1; deploys every template
in examples/ through heat-api with python-heatclient (DeployedServers get a
real os-collect-config running heat-lifecycle-agent); walks examples/demo.yaml
through update, suspend, resume; prints each stack's events as a timeline;
deletes the stacks and stops every process by its PID.

    bash tools/demo.sh            # all of the above
    bash tools/demo.sh --keep     # leave the cloud running, say how to use it
    bash tools/demo.sh --stop DIR # stop a kept cloud
"""

import argparse
import glob
import json
import os
import shutil
import signal
import sys
import tempfile
import time

import yaml

# Run from the repository root (python -m tools.demo): the loopback cloud's
# fixtures come from the checkout (they are not in the wheel).
from heat_lifecycle_fixtures import cloud as cloud_fixture
from heat_lifecycle_fixtures import deployed_server
from heat_lifecycle_fixtures import process
from heat_lifecycle_fixtures import service
from heat_lifecycle_fixtures import stacks
from heat_lifecycle_fixtures import thing_store

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(REPO, 'examples')
WORKFLOWS = os.path.join(EXAMPLES, 'external_resource_workflows.yaml')
NEEDS_NOVA = {'nova_server_agent.yaml'}
PIDS_FILE = 'demo-pids.json'


def say(text=''):
    print(text, flush=True)


class Demo(object):
    """keep: the services outlive this process (detached), for --keep."""

    def __init__(self, workdir, keep=False):
        self.workdir = workdir
        self.keep = keep
        self.cloud = cloud_fixture.Cloud(os.path.join(workdir, 'cloud'),
                                         detached=keep)
        self.driver = None
        self.store = None
        self.started = []  # fixtures set up, stopped in reverse order
        self.failures = []
        self.deployed = []  # (name, stack id, seen event ids)

    def up(self):
        started = time.time()
        say('== bringing up the loopback cloud in %s' % self.workdir)
        self.use(self.cloud)
        # The store before the driver: the driver's cleanUp deletes stacks
        # left behind, whose workflows call the store.
        self.store = self.use(thing_store.ThingStore(
            os.path.join(self.workdir, 'thing-store'), detached=self.keep))
        with open(WORKFLOWS) as f:
            self.cloud.mistral_client().workflows.create(f.read())
        self.driver = self.use(stacks.StackDriver(
            self.cloud.heat_client(), self.workdir, prefix='demo',
            timeout=600, detached=self.keep))
        say('   up in %.0f s: keystone %s, heat-api %s, mistral %s' % (
            time.time() - started, self.cloud.keystone.url,
            self.cloud.heat.url(self.cloud.keystone.demo_project_id),
            self.cloud.mistral.url))
        say('   thing store %s; workflows of examples/%s registered in '
            'Mistral' % (self.store.url, os.path.basename(WORKFLOWS)))

    def use(self, fixture):
        fixture.setUp()
        self.started.append(fixture)
        return fixture

    def _wait(self, stack_id, action, seen):
        def show(state):
            try:
                lines = self.driver.timeline(stack_id, seen)
            except Exception:  # the stack went away as it was deleted
                lines = []
            for line in lines:
                say('   ' + line)
        try:
            self.driver.wait(stack_id, action, on_poll=show)
        except stacks.StackFailed as exc:
            self.failures.append(str(exc))
            say('   !! %s' % exc)
            return False
        finally:
            if action != 'DELETE':
                show(None)
        return True

    def deploy(self, path, params):
        with open(path) as f:
            text = f.read()
        return self.deploy_text(os.path.splitext(os.path.basename(path))[0],
                                'examples/%s' % os.path.basename(path),
                                text, params)

    def deploy_text(self, name, origin, text, params):
        name = name.replace('_', '-')
        resources = (yaml.safe_load(text) or {}).get('resources') or {}
        servers = sorted(n for n, r in resources.items()
                         if r.get('type') == 'OS::Heat::DeployedServer')
        say('\n== stack %s (%s)%s' % (
            name, origin,
            ', servers: %s' % ', '.join(servers) if servers else ''))
        if params:
            say('   parameters: %s' % ', '.join(
                '%s=%s' % item for item in sorted(params.items())))
        stack_id = self.driver.create(text, params, servers=servers,
                                      name=name, wait=False)
        seen = set()
        self.deployed.append((name, stack_id, seen))
        if self._wait(stack_id, 'CREATE', seen):
            self.print_outputs(stack_id)
        return stack_id, seen

    def params_for(self, path, journal):
        """What each example needs from the demo's environment."""
        with open(path) as f:
            wanted = (yaml.safe_load(f) or {}).get('parameters') or {}
        params = {}
        if 'journal' in wanted:
            params['journal'] = journal
        if 'store' in wanted:
            params['store'] = self.store.url
        if 'server' in wanted:
            params['server'] = self.server_for(path)
        return params

    def server_for(self, path):
        """A DeployedServer in a stack of its own, its agent running."""
        name = '%s-server' % os.path.splitext(os.path.basename(path))[0]
        stack_id, _ = self.deploy_text(name, 'the demo\'s server stack',
                                       deployed_server.SERVER_STACK, {})
        return self.driver.outputs(stack_id)['id']

    def print_things(self):
        things = self.store.things()
        say('   things in the store: %s' % (
            json.dumps(things, sort_keys=True) if things else 'none'))

    def print_outputs(self, stack_id):
        for key, value in sorted(self.driver.outputs(stack_id).items()):
            say('   output %s = %s' % (key, json.dumps(value)))

    def lifecycle(self, stack_id, seen, params, journal):
        path = os.path.join(EXAMPLES, 'demo.yaml')
        with open(path) as f:
            text = f.read()
        say('\n-- update: http_port 8080 -> 9090')
        self.driver.update(stack_id, text, dict(params, http_port=9090),
                           wait=False)
        if self._wait(stack_id, 'UPDATE', seen):
            self.print_outputs(stack_id)
        for action in ('SUSPEND', 'RESUME'):
            say('\n-- %s' % action.lower())
            self.driver.action(stack_id, action, wait=False)
            self._wait(stack_id, action, seen)
        say('\n-- the journal the scripts wrote on the server (%s):' % journal)
        self.print_journal(journal)

    @staticmethod
    def print_journal(journal):
        if os.path.exists(journal):
            with open(journal) as f:
                for line in f:
                    say('   | ' + line.rstrip())

    def delete(self, name, stack_id, seen):
        say('\n== deleting %s' % name)
        self.driver.delete(stack_id, wait=False)
        # The stack is gone from the API once deleted: its last events are
        # not shown.
        self._wait(stack_id, 'DELETE', seen)

    def run(self):
        journal = os.path.join(self.workdir, 'servers', 'demo-journal')
        paths = sorted(glob.glob(os.path.join(EXAMPLES, '*.yaml')),
                       key=lambda p: (os.path.basename(p) != 'demo.yaml',
                                      p))
        for path in paths:
            if path == WORKFLOWS:
                continue  # Mistral's, not Heat's: registered with the store
            if os.path.basename(path) in NEEDS_NOVA:
                continue  # the loopback cloud has no Nova
            params = self.params_for(path, journal)
            stack_id, seen = self.deploy(path, params)
            if os.path.basename(path) == 'demo.yaml':
                self.lifecycle(stack_id, seen, params, journal)
            if 'store' in params:
                self.print_things()
        if not self.keep:
            for name, stack_id, seen in reversed(self.deployed):
                self.delete(name, stack_id, seen)
            say('\n-- the journal after delete:')
            self.print_journal(journal)
            self.print_things()

    def keep_running(self, temporary):
        pids = [p for part in self.started for p in part.all_processes()]
        path = write_kept(self.workdir, pids, temporary)
        say('\n== the cloud keeps running (%d processes, PIDs in %s)'
            % (len(pids), path))
        say('   point the openstack client or python-heatclient at it:')
        for key, value in sorted(self.cloud.keystone.demo_env().items()):
            say('   export %s=%s' % (key, value))
        say('   %s stack list' % os.path.join(os.path.dirname(sys.executable),
                                              'openstack'))
        say('   heat-engine log: %s' % self.cloud.heat.engine_log)
        say('   stop it with: bash tools/demo.sh --stop %s' % self.workdir)

    def down(self):
        while self.started:
            self.started.pop().cleanUp()
        say('== every process stopped')


def write_kept(workdir, processes, remove_workdir):
    """The file --stop reads: (name, PID) of each process kept running."""
    path = os.path.join(workdir, PIDS_FILE)
    with open(path, 'w') as f:
        json.dump({'processes': processes, 'remove_workdir': remove_workdir},
                  f)
    return path


def stop_kept(workdir):
    """Stop what a --keep run left in `workdir`, each by its PID."""
    path = os.path.join(workdir, PIDS_FILE)
    try:
        with open(path) as f:
            kept = json.load(f)
    except (OSError, ValueError) as exc:
        say('no demo kept running in %s: %s' % (workdir, exc))
        return 2
    for name, pid in kept['processes']:
        say('stopping %s (pid %s)' % (name, pid))
    left = process.stop_groups([pid for _name, pid in kept['processes']])
    if left:
        say('killed after 60 s: %s' % ', '.join(map(str, left)))
    os.remove(path)
    if kept.get('remove_workdir'):
        shutil.rmtree(workdir, ignore_errors=True)
        say('stopped; %s removed' % workdir)
    else:
        say('stopped; logs in %s' % workdir)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog='demo', description=__doc__.split(
        '\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--keep', action='store_true',
                        help='leave the cloud and the stacks running')
    parser.add_argument('--stop', metavar='DIR',
                        help='stop the cloud a --keep run left in DIR')
    parser.add_argument('--workdir', help='where logs and data go '
                        '(default: a new temporary directory, removed after '
                        'a run that passes)')
    args = parser.parse_args(argv)
    if args.stop:
        return stop_kept(args.stop)

    temporary = not args.workdir
    workdir = args.workdir or tempfile.mkdtemp(prefix='heat-lifecycle-demo-')
    # SIGTERM ends the demo through the finally below, as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    demo = Demo(workdir, keep=args.keep)
    try:
        demo.up()
        demo.run()
    except KeyboardInterrupt:
        demo.failures.append('interrupted')
    except Exception as exc:
        demo.failures.append(str(service.setup_error(exc)))
        say('!! %s' % demo.failures[-1])
    finally:
        if args.keep and demo.driver is not None:
            demo.keep_running(temporary)
        else:
            demo.down()
    if demo.failures:
        say('\n== %d problem(s):' % len(demo.failures))
        for failure in demo.failures:
            say('   - %s' % failure)
        say('   logs: %s' % workdir)
        return 1
    if temporary and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    say('\n== demo completed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
