"""What the drop-in's pcp.pmapi scripts share."""
from pcp import pmapi


def attempt(label, call, *args):
    """Prints what call(*args) returns, or the PCP error it raises."""
    try:
        value = call(*args)
        print("%s: %s" % (label, value))
        return value
    except pmapi.pmErr as error:
        print("%s: error %s" % (label, pmapi.pmErr(error.args[0]).message()))
        return None
