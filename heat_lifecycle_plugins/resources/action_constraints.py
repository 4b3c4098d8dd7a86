"""A property constraint: the value is an action name (action_names)."""

from heat.common.i18n import _
from heat.engine import constraints

from heat_lifecycle_plugins import action_names


class ValidActionName(constraints.Constraint):
    """A lifecycle action or a custom one (an upper-case identifier).

    Heat applies it wherever property values are checked (stack create,
    update, preview); template-validate skips values, so the types that
    use it check in validate_template too.
    """

    valid_types = (constraints.Schema.STRING_TYPE,)

    def validate(self, value, schema=None, context=None):
        problem = action_names.problem(value)
        if problem:
            raise ValueError(problem)

    def _str(self):
        return _('A lifecycle action or a custom action, an upper-case '
                 'identifier (%s) that is not a near miss of a lifecycle '
                 'action.') % action_names.NAME_PATTERN

    def _constraint(self):
        return self._str()
