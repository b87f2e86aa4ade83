from django import template

from chat.checks import model_notices

register = template.Library()


@register.simple_tag
def model_warnings() -> list[str]:
    return [notice.message for notice in model_notices()]
