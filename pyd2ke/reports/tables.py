"""The one Markdown table renderer of the reports, so that every report's
tables look alike and a change of layout is made in one place."""


def cell(value, spec, missing=""):
    """value formatted by spec, or missing where there is no value (None):
    a method that did not run, a time not measured."""
    return missing if value is None else format(value, spec)


def markdown_table(header, lines):
    """A Markdown table: the header's names, then one row per line of cells."""
    return "\n".join(["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
                      *("| " + " | ".join(map(str, cells)) + " |" for cells in lines)])
