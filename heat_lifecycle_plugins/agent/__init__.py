"""heat-lifecycle-agent: the in-instance side of software deployments.

A drop-in for heat-agents' 55-heat-config and heat-config-notify: it reads the
deployments that os-collect-config wrote, picks the config of a
SoftwareComponent for the deployment's action, runs the tool's hook and
signals Heat (progress first when the deployment is status-aware).
"""
