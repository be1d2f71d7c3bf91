"""The records' ``__init__``s compiled ahead of time, so that a start compiles none.

Generated from every record of the package by ``tests/test_records.py``; do not edit,
regenerate with ``AREST_REGENERATE_RECORD_INITS=1 pytest tests/test_records.py``.  Each
function is the text :func:`arest.records.initializer_text` makes for a record, typed
and renamed (neither changes its code), and ``WRITTEN`` maps that text to the code,
which :mod:`arest.records` binds to the record's own defaults and factories.  A record
whose text is not here (new or changed) is compiled as it is made, as before, and the
test fails until this module is regenerated.
"""

# ruff: noqa: E501  (each text as it is, one line per line of code)

from __future__ import annotations  # as arest.records compiles, so the same flags

from types import CodeType
from typing import Any

WRITTEN: dict[str, CodeType] = {}

# the globals the functions read, each record's own bound in their place
__MISSING: Any = None
__default_aggregate: Any = None
__default_allowed: Any = None
__default_also: Any = None
__default_annotation: Any = None
__default_antecedents: Any = None
__default_arguments: Any = None
__default_beyond: Any = None
__default_bound: Any = None
__default_bounds: Any = None
__default_column: Any = None
__default_command: Any = None
__default_comparison: Any = None
__default_compiled: Any = None
__default_constraint_sources: Any = None
__default_declared: Any = None
__default_destructive: Any = None
__default_det: Any = None
__default_during: Any = None
__default_exact: Any = None
__default_expected: Any = None
__default_id: Any = None
__default_identifying: Any = None
__default_itself: Any = None
__default_joins: Any = None
__default_keys: Any = None
__default_literal: Any = None
__default_marker: Any = None
__default_maximum: Any = None
__default_media: Any = None
__default_minimum: Any = None
__default_modality: Any = None
__default_mode: Any = None
__default_modes: Any = None
__default_more: Any = None
__default_negated: Any = None
__default_noun: Any = None
__default_now: Any = None
__default_offset: Any = None
__default_operator: Any = None
__default_path: Any = None
__default_plain: Any = None
__default_plural: Any = None
__default_pre: Any = None
__default_quoted: Any = None
__default_reading: Any = None
__default_reads: Any = None
__default_reference: Any = None
__default_relative: Any = None
__default_restrictions: Any = None
__default_routes: Any = None
__default_rules: Any = None
__default_sentence: Any = None
__default_snapshots: Any = None
__default_source: Any = None
__default_subscript: Any = None
__default_success: Any = None
__default_terms: Any = None
__default_total: Any = None
__default_triggers: Any = None
__default_values: Any = None
__default_warning: Any = None
__default_where: Any = None
__default_within: Any = None
__factory_added: Any = None
__factory_checks: Any = None
__factory_entities: Any = None
__factory_gone: Any = None
__factory_parts: Any = None
__factory_removed: Any = None
__object_setattr: Any = None


def _init_0(self: Any, added: Any = __MISSING, removed: Any = __MISSING) -> None:
    self.added = __factory_added() if added is __MISSING else added
    self.removed = __factory_removed() if removed is __MISSING else removed


WRITTEN['def __init__(self, added=__MISSING, removed=__MISSING):\n  self.added = __factory_added() if added is __MISSING else added\n  self.removed = __factory_removed() if removed is __MISSING else removed\n'] = _init_0.__code__


def _init_1(self: Any, added: Any = __MISSING, removed: Any = __MISSING, entities: Any = __MISSING, gone: Any = __MISSING) -> None:
    self.added = __factory_added() if added is __MISSING else added
    self.removed = __factory_removed() if removed is __MISSING else removed
    self.entities = __factory_entities() if entities is __MISSING else entities
    self.gone = __factory_gone() if gone is __MISSING else gone


WRITTEN['def __init__(self, added=__MISSING, removed=__MISSING, entities=__MISSING, gone=__MISSING):\n  self.added = __factory_added() if added is __MISSING else added\n  self.removed = __factory_removed() if removed is __MISSING else removed\n  self.entities = __factory_entities() if entities is __MISSING else entities\n  self.gone = __factory_gone() if gone is __MISSING else gone\n'] = _init_1.__code__


def _init_2(self: Any, added: Any = __MISSING, removed: Any = __MISSING, exact: Any = __default_exact) -> None:
    self.added = __factory_added() if added is __MISSING else added
    self.removed = __factory_removed() if removed is __MISSING else removed
    self.exact = exact


WRITTEN['def __init__(self, added=__MISSING, removed=__MISSING, exact=__default_exact):\n  self.added = __factory_added() if added is __MISSING else added\n  self.removed = __factory_removed() if removed is __MISSING else removed\n  self.exact = exact\n'] = _init_2.__code__


def _init_3(self: Any, clause: Any, fact_type: Any, role: Any, value: Any) -> None:
    __object_setattr(self, 'clause', clause)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'role', role)
    __object_setattr(self, 'value', value)


WRITTEN["def __init__(self, clause, fact_type, role, value):\n  __object_setattr(self, 'clause', clause)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'role', role)\n  __object_setattr(self, 'value', value)\n"] = _init_3.__code__


def _init_4(self: Any, clause: Any, left: Any, right: Any) -> None:
    __object_setattr(self, 'clause', clause)
    __object_setattr(self, 'left', left)
    __object_setattr(self, 'right', right)


WRITTEN["def __init__(self, clause, left, right):\n  __object_setattr(self, 'clause', clause)\n  __object_setattr(self, 'left', left)\n  __object_setattr(self, 'right', right)\n"] = _init_4.__code__


def _init_5(self: Any, constraints: Any, read: Any, plain: Any = __default_plain) -> None:
    __object_setattr(self, 'constraints', constraints)
    __object_setattr(self, 'read', read)
    __object_setattr(self, 'plain', plain)


WRITTEN["def __init__(self, constraints, read, plain=__default_plain):\n  __object_setattr(self, 'constraints', constraints)\n  __object_setattr(self, 'read', read)\n  __object_setattr(self, 'plain', plain)\n"] = _init_5.__code__


def _init_6(self: Any, constructs: Any, facts: Any, diagnostics: Any, warnings: Any, sentences: Any, schema: Any, shapes: Any) -> None:
    __object_setattr(self, 'constructs', constructs)
    __object_setattr(self, 'facts', facts)
    __object_setattr(self, 'diagnostics', diagnostics)
    __object_setattr(self, 'warnings', warnings)
    __object_setattr(self, 'sentences', sentences)
    __object_setattr(self, 'schema', schema)
    __object_setattr(self, 'shapes', shapes)


WRITTEN["def __init__(self, constructs, facts, diagnostics, warnings, sentences, schema, shapes):\n  __object_setattr(self, 'constructs', constructs)\n  __object_setattr(self, 'facts', facts)\n  __object_setattr(self, 'diagnostics', diagnostics)\n  __object_setattr(self, 'warnings', warnings)\n  __object_setattr(self, 'sentences', sentences)\n  __object_setattr(self, 'schema', schema)\n  __object_setattr(self, 'shapes', shapes)\n"] = _init_6.__code__


def _init_7(self: Any, fact_type: Any, bounds: Any, role: Any, source: Any = __default_source) -> None:
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'bounds', bounds)
    __object_setattr(self, 'role', role)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, fact_type, bounds, role, source=__default_source):\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'bounds', bounds)\n  __object_setattr(self, 'role', role)\n  __object_setattr(self, 'source', source)\n"] = _init_7.__code__


def _init_8(self: Any, fact_type: Any, role: Any, mandatory: Any) -> None:
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'role', role)
    __object_setattr(self, 'mandatory', mandatory)


WRITTEN["def __init__(self, fact_type, role, mandatory):\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'role', role)\n  __object_setattr(self, 'mandatory', mandatory)\n"] = _init_8.__code__


def _init_9(self: Any, fact_type: Any, role: Any, other: Any, shape: Any, other_noun: Any, other_is_entity: Any) -> None:
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'role', role)
    __object_setattr(self, 'other', other)
    __object_setattr(self, 'shape', shape)
    __object_setattr(self, 'other_noun', other_noun)
    __object_setattr(self, 'other_is_entity', other_is_entity)


WRITTEN["def __init__(self, fact_type, role, other, shape, other_noun, other_is_entity):\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'role', role)\n  __object_setattr(self, 'other', other)\n  __object_setattr(self, 'shape', shape)\n  __object_setattr(self, 'other_noun', other_noun)\n  __object_setattr(self, 'other_is_entity', other_is_entity)\n"] = _init_9.__code__


def _init_10(self: Any, fact_type: Any, roles: Any) -> None:
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'roles', roles)


WRITTEN["def __init__(self, fact_type, roles):\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'roles', roles)\n"] = _init_10.__code__


def _init_11(self: Any, fact_type: Any, terms: Any, negated: Any = __default_negated) -> None:
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'terms', terms)
    __object_setattr(self, 'negated', negated)


WRITTEN["def __init__(self, fact_type, terms, negated=__default_negated):\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'terms', terms)\n  __object_setattr(self, 'negated', negated)\n"] = _init_11.__code__


def _init_12(self: Any, fact_type: Any, values: Any, source: Any = __default_source) -> None:
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'values', values)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, fact_type, values, source=__default_source):\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'values', values)\n  __object_setattr(self, 'source', source)\n"] = _init_12.__code__


def _init_13(self: Any, facts: Any, warnings: Any, constraint_sources: Any = __default_constraint_sources, rules: Any = __default_rules) -> None:
    __object_setattr(self, 'facts', facts)
    __object_setattr(self, 'warnings', warnings)
    __object_setattr(self, 'constraint_sources', constraint_sources)
    __object_setattr(self, 'rules', rules)


WRITTEN["def __init__(self, facts, warnings, constraint_sources=__default_constraint_sources, rules=__default_rules):\n  __object_setattr(self, 'facts', facts)\n  __object_setattr(self, 'warnings', warnings)\n  __object_setattr(self, 'constraint_sources', constraint_sources)\n  __object_setattr(self, 'rules', rules)\n"] = _init_13.__code__


def _init_14(self: Any, form: Any, parts: Any = __MISSING, marker: Any = __default_marker, annotation: Any = __default_annotation) -> None:
    __object_setattr(self, 'form', form)
    __object_setattr(self, 'parts', __factory_parts() if parts is __MISSING else parts)
    __object_setattr(self, 'marker', marker)
    __object_setattr(self, 'annotation', annotation)


WRITTEN["def __init__(self, form, parts=__MISSING, marker=__default_marker, annotation=__default_annotation):\n  __object_setattr(self, 'form', form)\n  __object_setattr(self, 'parts', __factory_parts() if parts is __MISSING else parts)\n  __object_setattr(self, 'marker', marker)\n  __object_setattr(self, 'annotation', annotation)\n"] = _init_14.__code__


def _init_15(self: Any, id: Any, kind: Any, modality: Any, reading: Any, fact_types: Any, triggers: Any, check: Any, more: Any = __default_more) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'kind', kind)
    __object_setattr(self, 'modality', modality)
    __object_setattr(self, 'reading', reading)
    __object_setattr(self, 'fact_types', fact_types)
    __object_setattr(self, 'triggers', triggers)
    __object_setattr(self, 'check', check)
    __object_setattr(self, 'more', more)


WRITTEN["def __init__(self, id, kind, modality, reading, fact_types, triggers, check, more=__default_more):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'kind', kind)\n  __object_setattr(self, 'modality', modality)\n  __object_setattr(self, 'reading', reading)\n  __object_setattr(self, 'fact_types', fact_types)\n  __object_setattr(self, 'triggers', triggers)\n  __object_setattr(self, 'check', check)\n  __object_setattr(self, 'more', more)\n"] = _init_15.__code__


def _init_16(self: Any, id: Any, kind: Any, modality: Any, reading: Any, spans: Any, operator: Any = __default_operator, minimum: Any = __default_minimum, maximum: Any = __default_maximum, comparison: Any = __default_comparison, allowed: Any = __default_allowed, noun: Any = __default_noun, joins: Any = __default_joins, restrictions: Any = __default_restrictions, terms: Any = __default_terms, antecedents: Any = __default_antecedents) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'kind', kind)
    __object_setattr(self, 'modality', modality)
    __object_setattr(self, 'reading', reading)
    __object_setattr(self, 'spans', spans)
    __object_setattr(self, 'operator', operator)
    __object_setattr(self, 'minimum', minimum)
    __object_setattr(self, 'maximum', maximum)
    __object_setattr(self, 'comparison', comparison)
    __object_setattr(self, 'allowed', allowed)
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'joins', joins)
    __object_setattr(self, 'restrictions', restrictions)
    __object_setattr(self, 'terms', terms)
    __object_setattr(self, 'antecedents', antecedents)


WRITTEN["def __init__(self, id, kind, modality, reading, spans, operator=__default_operator, minimum=__default_minimum, maximum=__default_maximum, comparison=__default_comparison, allowed=__default_allowed, noun=__default_noun, joins=__default_joins, restrictions=__default_restrictions, terms=__default_terms, antecedents=__default_antecedents):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'kind', kind)\n  __object_setattr(self, 'modality', modality)\n  __object_setattr(self, 'reading', reading)\n  __object_setattr(self, 'spans', spans)\n  __object_setattr(self, 'operator', operator)\n  __object_setattr(self, 'minimum', minimum)\n  __object_setattr(self, 'maximum', maximum)\n  __object_setattr(self, 'comparison', comparison)\n  __object_setattr(self, 'allowed', allowed)\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'joins', joins)\n  __object_setattr(self, 'restrictions', restrictions)\n  __object_setattr(self, 'terms', terms)\n  __object_setattr(self, 'antecedents', antecedents)\n"] = _init_16.__code__


def _init_17(self: Any, id: Any, noun: Any, initial: Any, statuses: Any, terminal: Any, transitions: Any) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'initial', initial)
    __object_setattr(self, 'statuses', statuses)
    __object_setattr(self, 'terminal', terminal)
    __object_setattr(self, 'transitions', transitions)


WRITTEN["def __init__(self, id, noun, initial, statuses, terminal, transitions):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'initial', initial)\n  __object_setattr(self, 'statuses', statuses)\n  __object_setattr(self, 'terminal', terminal)\n  __object_setattr(self, 'transitions', transitions)\n"] = _init_17.__code__


def _init_18(self: Any, id: Any, reading: Any, fact_type: Any, consequent: Any, seeds: Any, goal: Any, antecedents: Any, reads: Any = __default_reads, aggregate: Any = __default_aggregate, total: Any = __default_total) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'reading', reading)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'consequent', consequent)
    __object_setattr(self, 'seeds', seeds)
    __object_setattr(self, 'goal', goal)
    __object_setattr(self, 'antecedents', antecedents)
    __object_setattr(self, 'reads', reads)
    __object_setattr(self, 'aggregate', aggregate)
    __object_setattr(self, 'total', total)


WRITTEN["def __init__(self, id, reading, fact_type, consequent, seeds, goal, antecedents, reads=__default_reads, aggregate=__default_aggregate, total=__default_total):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'reading', reading)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'consequent', consequent)\n  __object_setattr(self, 'seeds', seeds)\n  __object_setattr(self, 'goal', goal)\n  __object_setattr(self, 'antecedents', antecedents)\n  __object_setattr(self, 'reads', reads)\n  __object_setattr(self, 'aggregate', aggregate)\n  __object_setattr(self, 'total', total)\n"] = _init_18.__code__


def _init_19(self: Any, id: Any, reading: Any, fact_type: Any, mode: Any) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'reading', reading)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'mode', mode)


WRITTEN["def __init__(self, id, reading, fact_type, mode):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'reading', reading)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'mode', mode)\n"] = _init_19.__code__


def _init_20(self: Any, id: Any, roles: Any, readings: Any, mode: Any) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'roles', roles)
    __object_setattr(self, 'readings', readings)
    __object_setattr(self, 'mode', mode)


WRITTEN["def __init__(self, id, roles, readings, mode):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'roles', roles)\n  __object_setattr(self, 'readings', readings)\n  __object_setattr(self, 'mode', mode)\n"] = _init_20.__code__


def _init_21(self: Any, id: Any, roles: Any, readings: Any, mode: Any = __default_mode, source: Any = __default_source) -> None:
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'roles', roles)
    __object_setattr(self, 'readings', readings)
    __object_setattr(self, 'mode', mode)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, id, roles, readings, mode=__default_mode, source=__default_source):\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'roles', roles)\n  __object_setattr(self, 'readings', readings)\n  __object_setattr(self, 'mode', mode)\n  __object_setattr(self, 'source', source)\n"] = _init_21.__code__


def _init_22(self: Any, initial: Any, fact_type: Any, events: Any, performed: Any, performer: Any) -> None:
    __object_setattr(self, 'initial', initial)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'events', events)
    __object_setattr(self, 'performed', performed)
    __object_setattr(self, 'performer', performer)


WRITTEN["def __init__(self, initial, fact_type, events, performed, performer):\n  __object_setattr(self, 'initial', initial)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'events', events)\n  __object_setattr(self, 'performed', performed)\n  __object_setattr(self, 'performer', performer)\n"] = _init_22.__code__


def _init_23(self: Any, key: Any, rel: Any, fact_type: Any, role: Any, other: Any, noun: Any) -> None:
    __object_setattr(self, 'key', key)
    __object_setattr(self, 'rel', rel)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'role', role)
    __object_setattr(self, 'other', other)
    __object_setattr(self, 'noun', noun)


WRITTEN["def __init__(self, key, rel, fact_type, role, other, noun):\n  __object_setattr(self, 'key', key)\n  __object_setattr(self, 'rel', rel)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'role', role)\n  __object_setattr(self, 'other', other)\n  __object_setattr(self, 'noun', noun)\n"] = _init_23.__code__


def _init_24(self: Any, kind: Any, spans: Any, modality: Any = __default_modality, operator: Any = __default_operator, bounds: Any = __default_bounds, comparison: Any = __default_comparison, values: Any = __default_values, noun: Any = __default_noun, joins: Any = __default_joins, restrictions: Any = __default_restrictions, terms: Any = __default_terms, antecedents: Any = __default_antecedents, id: Any = __default_id, reading: Any = __default_reading, source: Any = __default_source) -> None:
    __object_setattr(self, 'kind', kind)
    __object_setattr(self, 'spans', spans)
    __object_setattr(self, 'modality', modality)
    __object_setattr(self, 'operator', operator)
    __object_setattr(self, 'bounds', bounds)
    __object_setattr(self, 'comparison', comparison)
    __object_setattr(self, 'values', values)
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'joins', joins)
    __object_setattr(self, 'restrictions', restrictions)
    __object_setattr(self, 'terms', terms)
    __object_setattr(self, 'antecedents', antecedents)
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'reading', reading)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, kind, spans, modality=__default_modality, operator=__default_operator, bounds=__default_bounds, comparison=__default_comparison, values=__default_values, noun=__default_noun, joins=__default_joins, restrictions=__default_restrictions, terms=__default_terms, antecedents=__default_antecedents, id=__default_id, reading=__default_reading, source=__default_source):\n  __object_setattr(self, 'kind', kind)\n  __object_setattr(self, 'spans', spans)\n  __object_setattr(self, 'modality', modality)\n  __object_setattr(self, 'operator', operator)\n  __object_setattr(self, 'bounds', bounds)\n  __object_setattr(self, 'comparison', comparison)\n  __object_setattr(self, 'values', values)\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'joins', joins)\n  __object_setattr(self, 'restrictions', restrictions)\n  __object_setattr(self, 'terms', terms)\n  __object_setattr(self, 'antecedents', antecedents)\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'reading', reading)\n  __object_setattr(self, 'source', source)\n"] = _init_24.__code__


def _init_25(self: Any, kind: Any, text: Any, line: Any, column: Any, pieces: Any) -> None:
    __object_setattr(self, 'kind', kind)
    __object_setattr(self, 'text', text)
    __object_setattr(self, 'line', line)
    __object_setattr(self, 'column', column)
    __object_setattr(self, 'pieces', pieces)


WRITTEN["def __init__(self, kind, text, line, column, pieces):\n  __object_setattr(self, 'kind', kind)\n  __object_setattr(self, 'text', text)\n  __object_setattr(self, 'line', line)\n  __object_setattr(self, 'column', column)\n  __object_setattr(self, 'pieces', pieces)\n"] = _init_25.__code__


def _init_26(self: Any, labels: Any, columns: Any) -> None:
    __object_setattr(self, 'labels', labels)
    __object_setattr(self, 'columns', columns)


WRITTEN["def __init__(self, labels, columns):\n  __object_setattr(self, 'labels', labels)\n  __object_setattr(self, 'columns', columns)\n"] = _init_26.__code__


def _init_27(self: Any, left: Any, op: Any, right: Any) -> None:
    __object_setattr(self, 'left', left)
    __object_setattr(self, 'op', op)
    __object_setattr(self, 'right', right)


WRITTEN["def __init__(self, left, op, right):\n  __object_setattr(self, 'left', left)\n  __object_setattr(self, 'op', op)\n  __object_setattr(self, 'right', right)\n"] = _init_27.__code__


def _init_28(self: Any, left: Any, right: Any) -> None:
    __object_setattr(self, 'left', left)
    __object_setattr(self, 'right', right)


WRITTEN["def __init__(self, left, right):\n  __object_setattr(self, 'left', left)\n  __object_setattr(self, 'right', right)\n"] = _init_28.__code__


def _init_29(self: Any, low: Any, high: Any, column: Any = __default_column) -> None:
    __object_setattr(self, 'low', low)
    __object_setattr(self, 'high', high)
    __object_setattr(self, 'column', column)


WRITTEN["def __init__(self, low, high, column=__default_column):\n  __object_setattr(self, 'low', low)\n  __object_setattr(self, 'high', high)\n  __object_setattr(self, 'column', column)\n"] = _init_29.__code__


def _init_30(self: Any, masked: Any, nouns: Any, literals: Any, words: Any, offsets: Any) -> None:
    __object_setattr(self, 'masked', masked)
    __object_setattr(self, 'nouns', nouns)
    __object_setattr(self, 'literals', literals)
    __object_setattr(self, 'words', words)
    __object_setattr(self, 'offsets', offsets)


WRITTEN["def __init__(self, masked, nouns, literals, words, offsets):\n  __object_setattr(self, 'masked', masked)\n  __object_setattr(self, 'nouns', nouns)\n  __object_setattr(self, 'literals', literals)\n  __object_setattr(self, 'words', words)\n  __object_setattr(self, 'offsets', offsets)\n"] = _init_30.__code__


def _init_31(self: Any, method: Any, path: Any, success: Any = __default_success, media: Any = __default_media) -> None:
    __object_setattr(self, 'method', method)
    __object_setattr(self, 'path', path)
    __object_setattr(self, 'success', success)
    __object_setattr(self, 'media', media)


WRITTEN["def __init__(self, method, path, success=__default_success, media=__default_media):\n  __object_setattr(self, 'method', method)\n  __object_setattr(self, 'path', path)\n  __object_setattr(self, 'success', success)\n  __object_setattr(self, 'media', media)\n"] = _init_31.__code__


def _init_32(self: Any, mode: Any, keyword: Any, consequent: Any, conditions: Any, id: Any = __default_id, reading: Any = __default_reading, source: Any = __default_source) -> None:
    __object_setattr(self, 'mode', mode)
    __object_setattr(self, 'keyword', keyword)
    __object_setattr(self, 'consequent', consequent)
    __object_setattr(self, 'conditions', conditions)
    __object_setattr(self, 'id', id)
    __object_setattr(self, 'reading', reading)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, mode, keyword, consequent, conditions, id=__default_id, reading=__default_reading, source=__default_source):\n  __object_setattr(self, 'mode', mode)\n  __object_setattr(self, 'keyword', keyword)\n  __object_setattr(self, 'consequent', consequent)\n  __object_setattr(self, 'conditions', conditions)\n  __object_setattr(self, 'id', id)\n  __object_setattr(self, 'reading', reading)\n  __object_setattr(self, 'source', source)\n"] = _init_32.__code__


def _init_33(self: Any, name: Any, event: Any, source: Any, target: Any) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'event', event)
    __object_setattr(self, 'source', source)
    __object_setattr(self, 'target', target)


WRITTEN["def __init__(self, name, event, source, target):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'event', event)\n  __object_setattr(self, 'source', source)\n  __object_setattr(self, 'target', target)\n"] = _init_33.__code__


def _init_34(self: Any, name: Any, fact_type: Any, role: Any, shape: Any, keys: Any = __default_keys) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'role', role)
    __object_setattr(self, 'shape', shape)
    __object_setattr(self, 'keys', keys)


WRITTEN["def __init__(self, name, fact_type, role, shape, keys=__default_keys):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'role', role)\n  __object_setattr(self, 'shape', shape)\n  __object_setattr(self, 'keys', keys)\n"] = _init_34.__code__


def _init_35(self: Any, name: Any, kind: Any, reference: Any, supertypes: Any, plural: Any) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'kind', kind)
    __object_setattr(self, 'reference', reference)
    __object_setattr(self, 'supertypes', supertypes)
    __object_setattr(self, 'plural', plural)


WRITTEN["def __init__(self, name, kind, reference, supertypes, plural):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'kind', kind)\n  __object_setattr(self, 'reference', reference)\n  __object_setattr(self, 'supertypes', supertypes)\n  __object_setattr(self, 'plural', plural)\n"] = _init_35.__code__


def _init_36(self: Any, name: Any, kind: Any, reference: Any = __default_reference, source: Any = __default_source) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'kind', kind)
    __object_setattr(self, 'reference', reference)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, name, kind, reference=__default_reference, source=__default_source):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'kind', kind)\n  __object_setattr(self, 'reference', reference)\n  __object_setattr(self, 'source', source)\n"] = _init_36.__code__


def _init_37(self: Any, name: Any, sources: Any, targets: Any, event: Any) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'sources', sources)
    __object_setattr(self, 'targets', targets)
    __object_setattr(self, 'event', event)


WRITTEN["def __init__(self, name, sources, targets, event):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'sources', sources)\n  __object_setattr(self, 'targets', targets)\n  __object_setattr(self, 'event', event)\n"] = _init_37.__code__


def _init_38(self: Any, name: Any, subscript: Any = __default_subscript, plural: Any = __default_plural, declared: Any = __default_declared, offset: Any = __default_offset) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'subscript', subscript)
    __object_setattr(self, 'plural', plural)
    __object_setattr(self, 'declared', declared)
    __object_setattr(self, 'offset', offset)


WRITTEN["def __init__(self, name, subscript=__default_subscript, plural=__default_plural, declared=__default_declared, offset=__default_offset):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'subscript', subscript)\n  __object_setattr(self, 'plural', plural)\n  __object_setattr(self, 'declared', declared)\n  __object_setattr(self, 'offset', offset)\n"] = _init_38.__code__


def _init_39(self: Any, name: Any, surface: Any, subscript: Any, plural: Any, declared: Any, start: Any, end: Any) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'surface', surface)
    __object_setattr(self, 'subscript', subscript)
    __object_setattr(self, 'plural', plural)
    __object_setattr(self, 'declared', declared)
    __object_setattr(self, 'start', start)
    __object_setattr(self, 'end', end)


WRITTEN["def __init__(self, name, surface, subscript, plural, declared, start, end):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'surface', surface)\n  __object_setattr(self, 'subscript', subscript)\n  __object_setattr(self, 'plural', plural)\n  __object_setattr(self, 'declared', declared)\n  __object_setattr(self, 'start', start)\n  __object_setattr(self, 'end', end)\n"] = _init_39.__code__


def _init_40(self: Any, name: Any, target: Any, effect: Any, permission: Any, description: Any, input: Any, handler: Any, offer: Any, routes: Any = __default_routes, beyond: Any = __default_beyond, compiled: Any = __default_compiled) -> None:
    __object_setattr(self, 'name', name)
    __object_setattr(self, 'target', target)
    __object_setattr(self, 'effect', effect)
    __object_setattr(self, 'permission', permission)
    __object_setattr(self, 'description', description)
    __object_setattr(self, 'input', input)
    __object_setattr(self, 'handler', handler)
    __object_setattr(self, 'offer', offer)
    __object_setattr(self, 'routes', routes)
    __object_setattr(self, 'beyond', beyond)
    __object_setattr(self, 'compiled', compiled)


WRITTEN["def __init__(self, name, target, effect, permission, description, input, handler, offer, routes=__default_routes, beyond=__default_beyond, compiled=__default_compiled):\n  __object_setattr(self, 'name', name)\n  __object_setattr(self, 'target', target)\n  __object_setattr(self, 'effect', effect)\n  __object_setattr(self, 'permission', permission)\n  __object_setattr(self, 'description', description)\n  __object_setattr(self, 'input', input)\n  __object_setattr(self, 'handler', handler)\n  __object_setattr(self, 'offer', offer)\n  __object_setattr(self, 'routes', routes)\n  __object_setattr(self, 'beyond', beyond)\n  __object_setattr(self, 'compiled', compiled)\n"] = _init_40.__code__


def _init_41(self: Any, noun: Any, det: Any = __default_det, bound: Any = __default_bound, pre: Any = __default_pre, literal: Any = __default_literal, path: Any = __default_path, relative: Any = __default_relative, itself: Any = __default_itself) -> None:
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'det', det)
    __object_setattr(self, 'bound', bound)
    __object_setattr(self, 'pre', pre)
    __object_setattr(self, 'literal', literal)
    __object_setattr(self, 'path', path)
    __object_setattr(self, 'relative', relative)
    __object_setattr(self, 'itself', itself)


WRITTEN["def __init__(self, noun, det=__default_det, bound=__default_bound, pre=__default_pre, literal=__default_literal, path=__default_path, relative=__default_relative, itself=__default_itself):\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'det', det)\n  __object_setattr(self, 'bound', bound)\n  __object_setattr(self, 'pre', pre)\n  __object_setattr(self, 'literal', literal)\n  __object_setattr(self, 'path', path)\n  __object_setattr(self, 'relative', relative)\n  __object_setattr(self, 'itself', itself)\n"] = _init_41.__code__


def _init_42(self: Any, noun: Any, fact_type: Any, identifying: Any = __default_identifying, source: Any = __default_source) -> None:
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'fact_type', fact_type)
    __object_setattr(self, 'identifying', identifying)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, noun, fact_type, identifying=__default_identifying, source=__default_source):\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'fact_type', fact_type)\n  __object_setattr(self, 'identifying', identifying)\n  __object_setattr(self, 'source', source)\n"] = _init_42.__code__


def _init_43(self: Any, noun: Any, id_keys: Any, writes: Any, quiet: Any, read: Any, shown: Any, url: Any, navigation: Any, start: Any, compiled_tail: Any, triggering: Any, derivation_writes: Any, flat: Any, checks: Any = __MISSING) -> None:
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'id_keys', id_keys)
    __object_setattr(self, 'writes', writes)
    __object_setattr(self, 'quiet', quiet)
    __object_setattr(self, 'read', read)
    __object_setattr(self, 'shown', shown)
    __object_setattr(self, 'url', url)
    __object_setattr(self, 'navigation', navigation)
    __object_setattr(self, 'start', start)
    __object_setattr(self, 'compiled_tail', compiled_tail)
    __object_setattr(self, 'triggering', triggering)
    __object_setattr(self, 'derivation_writes', derivation_writes)
    __object_setattr(self, 'flat', flat)
    __object_setattr(self, 'checks', __factory_checks() if checks is __MISSING else checks)


WRITTEN["def __init__(self, noun, id_keys, writes, quiet, read, shown, url, navigation, start, compiled_tail, triggering, derivation_writes, flat, checks=__MISSING):\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'id_keys', id_keys)\n  __object_setattr(self, 'writes', writes)\n  __object_setattr(self, 'quiet', quiet)\n  __object_setattr(self, 'read', read)\n  __object_setattr(self, 'shown', shown)\n  __object_setattr(self, 'url', url)\n  __object_setattr(self, 'navigation', navigation)\n  __object_setattr(self, 'start', start)\n  __object_setattr(self, 'compiled_tail', compiled_tail)\n  __object_setattr(self, 'triggering', triggering)\n  __object_setattr(self, 'derivation_writes', derivation_writes)\n  __object_setattr(self, 'flat', flat)\n  __object_setattr(self, 'checks', __factory_checks() if checks is __MISSING else checks)\n"] = _init_43.__code__


def _init_44(self: Any, noun: Any, initial: Any, terminal: Any, transitions: Any, function: Any, triggers: Any = __default_triggers, during: Any = __default_during, within: Any = __default_within) -> None:
    __object_setattr(self, 'noun', noun)
    __object_setattr(self, 'initial', initial)
    __object_setattr(self, 'terminal', terminal)
    __object_setattr(self, 'transitions', transitions)
    __object_setattr(self, 'function', function)
    __object_setattr(self, 'triggers', triggers)
    __object_setattr(self, 'during', during)
    __object_setattr(self, 'within', within)


WRITTEN["def __init__(self, noun, initial, terminal, transitions, function, triggers=__default_triggers, during=__default_during, within=__default_within):\n  __object_setattr(self, 'noun', noun)\n  __object_setattr(self, 'initial', initial)\n  __object_setattr(self, 'terminal', terminal)\n  __object_setattr(self, 'transitions', transitions)\n  __object_setattr(self, 'function', function)\n  __object_setattr(self, 'triggers', triggers)\n  __object_setattr(self, 'during', during)\n  __object_setattr(self, 'within', within)\n"] = _init_44.__code__


def _init_45(self: Any, nouns: Any, fact_types: Any, constraints: Any, rules: Any, machines: Any) -> None:
    __object_setattr(self, 'nouns', nouns)
    __object_setattr(self, 'fact_types', fact_types)
    __object_setattr(self, 'constraints', constraints)
    __object_setattr(self, 'rules', rules)
    __object_setattr(self, 'machines', machines)


WRITTEN["def __init__(self, nouns, fact_types, constraints, rules, machines):\n  __object_setattr(self, 'nouns', nouns)\n  __object_setattr(self, 'fact_types', fact_types)\n  __object_setattr(self, 'constraints', constraints)\n  __object_setattr(self, 'rules', rules)\n  __object_setattr(self, 'machines', machines)\n"] = _init_45.__code__


def _init_46(self: Any, now: Any = __default_now, source: Any = __default_source) -> None:
    __object_setattr(self, 'now', now)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, now=__default_now, source=__default_source):\n  __object_setattr(self, 'now', now)\n  __object_setattr(self, 'source', source)\n"] = _init_46.__code__


def _init_47(self: Any, offset: Any, line: Any, column: Any) -> None:
    __object_setattr(self, 'offset', offset)
    __object_setattr(self, 'line', line)
    __object_setattr(self, 'column', column)


WRITTEN["def __init__(self, offset, line, column):\n  __object_setattr(self, 'offset', offset)\n  __object_setattr(self, 'line', line)\n  __object_setattr(self, 'column', column)\n"] = _init_47.__code__


def _init_48(self: Any, op: Any, operand: Any, quoted: Any = __default_quoted) -> None:
    __object_setattr(self, 'op', op)
    __object_setattr(self, 'operand', operand)
    __object_setattr(self, 'quoted', quoted)


WRITTEN["def __init__(self, op, operand, quoted=__default_quoted):\n  __object_setattr(self, 'op', op)\n  __object_setattr(self, 'operand', operand)\n  __object_setattr(self, 'quoted', quoted)\n"] = _init_48.__code__


def _init_49(self: Any, order: Any, words: Any) -> None:
    __object_setattr(self, 'order', order)
    __object_setattr(self, 'words', words)


WRITTEN["def __init__(self, order, words):\n  __object_setattr(self, 'order', order)\n  __object_setattr(self, 'words', words)\n"] = _init_49.__code__


def _init_50(self: Any, path: Any, line: Any, column: Any, message: Any, sentence: Any = __default_sentence, expected: Any = __default_expected) -> None:
    __object_setattr(self, 'path', path)
    __object_setattr(self, 'line', line)
    __object_setattr(self, 'column', column)
    __object_setattr(self, 'message', message)
    __object_setattr(self, 'sentence', sentence)
    __object_setattr(self, 'expected', expected)


WRITTEN["def __init__(self, path, line, column, message, sentence=__default_sentence, expected=__default_expected):\n  __object_setattr(self, 'path', path)\n  __object_setattr(self, 'line', line)\n  __object_setattr(self, 'column', column)\n  __object_setattr(self, 'message', message)\n  __object_setattr(self, 'sentence', sentence)\n  __object_setattr(self, 'expected', expected)\n"] = _init_50.__code__


def _init_51(self: Any, path: Any, line: Any, column: Any, text: Any) -> None:
    __object_setattr(self, 'path', path)
    __object_setattr(self, 'line', line)
    __object_setattr(self, 'column', column)
    __object_setattr(self, 'text', text)


WRITTEN["def __init__(self, path, line, column, text):\n  __object_setattr(self, 'path', path)\n  __object_setattr(self, 'line', line)\n  __object_setattr(self, 'column', column)\n  __object_setattr(self, 'text', text)\n"] = _init_51.__code__


def _init_52(self: Any, phrases: Any, words: Any, comparison: Any = __default_comparison) -> None:
    __object_setattr(self, 'phrases', phrases)
    __object_setattr(self, 'words', words)
    __object_setattr(self, 'comparison', comparison)


WRITTEN["def __init__(self, phrases, words, comparison=__default_comparison):\n  __object_setattr(self, 'phrases', phrases)\n  __object_setattr(self, 'words', words)\n  __object_setattr(self, 'comparison', comparison)\n"] = _init_52.__code__


def _init_53(self: Any, roles: Any, supertypes: Any) -> None:
    __object_setattr(self, 'roles', roles)
    __object_setattr(self, 'supertypes', supertypes)


WRITTEN["def __init__(self, roles, supertypes):\n  __object_setattr(self, 'roles', roles)\n  __object_setattr(self, 'supertypes', supertypes)\n"] = _init_53.__code__


def _init_54(self: Any, seed: Any, negated: Any, variables: Any, steps: Any, head: Any) -> None:
    __object_setattr(self, 'seed', seed)
    __object_setattr(self, 'negated', negated)
    __object_setattr(self, 'variables', variables)
    __object_setattr(self, 'steps', steps)
    __object_setattr(self, 'head', head)


WRITTEN["def __init__(self, seed, negated, variables, steps, head):\n  __object_setattr(self, 'seed', seed)\n  __object_setattr(self, 'negated', negated)\n  __object_setattr(self, 'variables', variables)\n  __object_setattr(self, 'steps', steps)\n  __object_setattr(self, 'head', head)\n"] = _init_54.__code__


def _init_55(self: Any, seeds: Any, witnesses: Any, relations: Any, group_roles: Any, count_role: Any, consequent: Any) -> None:
    __object_setattr(self, 'seeds', seeds)
    __object_setattr(self, 'witnesses', witnesses)
    __object_setattr(self, 'relations', relations)
    __object_setattr(self, 'group_roles', group_roles)
    __object_setattr(self, 'count_role', count_role)
    __object_setattr(self, 'consequent', consequent)


WRITTEN["def __init__(self, seeds, witnesses, relations, group_roles, count_role, consequent):\n  __object_setattr(self, 'seeds', seeds)\n  __object_setattr(self, 'witnesses', witnesses)\n  __object_setattr(self, 'relations', relations)\n  __object_setattr(self, 'group_roles', group_roles)\n  __object_setattr(self, 'count_role', count_role)\n  __object_setattr(self, 'consequent', consequent)\n"] = _init_55.__code__


def _init_56(self: Any, sequence: Any, cells: Any, digest: Any, shared: Any) -> None:
    __object_setattr(self, 'sequence', sequence)
    __object_setattr(self, 'cells', cells)
    __object_setattr(self, 'digest', digest)
    __object_setattr(self, 'shared', shared)


WRITTEN["def __init__(self, sequence, cells, digest, shared):\n  __object_setattr(self, 'sequence', sequence)\n  __object_setattr(self, 'cells', cells)\n  __object_setattr(self, 'digest', digest)\n  __object_setattr(self, 'shared', shared)\n"] = _init_56.__code__


def _init_57(self: Any, snapshots: Any = __default_snapshots) -> None:
    __object_setattr(self, 'snapshots', snapshots)


WRITTEN["def __init__(self, snapshots=__default_snapshots):\n  __object_setattr(self, 'snapshots', snapshots)\n"] = _init_57.__code__


def _init_58(self: Any, source: Any, offset: Any, message: Any, warning: Any = __default_warning) -> None:
    __object_setattr(self, 'source', source)
    __object_setattr(self, 'offset', offset)
    __object_setattr(self, 'message', message)
    __object_setattr(self, 'warning', warning)


WRITTEN["def __init__(self, source, offset, message, warning=__default_warning):\n  __object_setattr(self, 'source', source)\n  __object_setattr(self, 'offset', offset)\n  __object_setattr(self, 'message', message)\n  __object_setattr(self, 'warning', warning)\n"] = _init_58.__code__


def _init_59(self: Any, state: Any, sequence: Any, digest: Any, checkpointed: Any, checkpoint_sequence: Any, base_to_keep: Any, rebased: Any) -> None:
    self.state = state
    self.sequence = sequence
    self.digest = digest
    self.checkpointed = checkpointed
    self.checkpoint_sequence = checkpoint_sequence
    self.base_to_keep = base_to_keep
    self.rebased = rebased


WRITTEN['def __init__(self, state, sequence, digest, checkpointed, checkpoint_sequence, base_to_keep, rebased):\n  self.state = state\n  self.sequence = sequence\n  self.digest = digest\n  self.checkpointed = checkpointed\n  self.checkpoint_sequence = checkpoint_sequence\n  self.base_to_keep = base_to_keep\n  self.rebased = rebased\n'] = _init_59.__code__


def _init_60(self: Any, strata: Any, asserted: Any, modes: Any = __default_modes) -> None:
    __object_setattr(self, 'strata', strata)
    __object_setattr(self, 'asserted', asserted)
    __object_setattr(self, 'modes', modes)


WRITTEN["def __init__(self, strata, asserted, modes=__default_modes):\n  __object_setattr(self, 'strata', strata)\n  __object_setattr(self, 'asserted', asserted)\n  __object_setattr(self, 'modes', modes)\n"] = _init_60.__code__


def _init_61(self: Any, sub: Any, sup: Any, source: Any = __default_source) -> None:
    __object_setattr(self, 'sub', sub)
    __object_setattr(self, 'sup', sup)
    __object_setattr(self, 'source', source)


WRITTEN["def __init__(self, sub, sup, source=__default_source):\n  __object_setattr(self, 'sub', sub)\n  __object_setattr(self, 'sup', sup)\n  __object_setattr(self, 'source', source)\n"] = _init_61.__code__


def _init_62(self: Any, tag: Any, arguments: Any = __default_arguments, command: Any = __default_command, destructive: Any = __default_destructive, also: Any = __default_also) -> None:
    __object_setattr(self, 'tag', tag)
    __object_setattr(self, 'arguments', arguments)
    __object_setattr(self, 'command', command)
    __object_setattr(self, 'destructive', destructive)
    __object_setattr(self, 'also', also)


WRITTEN["def __init__(self, tag, arguments=__default_arguments, command=__default_command, destructive=__default_destructive, also=__default_also):\n  __object_setattr(self, 'tag', tag)\n  __object_setattr(self, 'arguments', arguments)\n  __object_setattr(self, 'command', command)\n  __object_setattr(self, 'destructive', destructive)\n  __object_setattr(self, 'also', also)\n"] = _init_62.__code__


def _init_63(self: Any, target: Any, expression: Any) -> None:
    __object_setattr(self, 'target', target)
    __object_setattr(self, 'expression', expression)


WRITTEN["def __init__(self, target, expression):\n  __object_setattr(self, 'target', target)\n  __object_setattr(self, 'expression', expression)\n"] = _init_63.__code__


def _init_64(self: Any, target: Any, op: Any, of: Any, where: Any = __default_where) -> None:
    __object_setattr(self, 'target', target)
    __object_setattr(self, 'op', op)
    __object_setattr(self, 'of', of)
    __object_setattr(self, 'where', where)


WRITTEN["def __init__(self, target, op, of, where=__default_where):\n  __object_setattr(self, 'target', target)\n  __object_setattr(self, 'op', op)\n  __object_setattr(self, 'of', of)\n  __object_setattr(self, 'where', where)\n"] = _init_64.__code__


def _init_65(self: Any, value: Any, start: Any, end: Any) -> None:
    __object_setattr(self, 'value', value)
    __object_setattr(self, 'start', start)
    __object_setattr(self, 'end', end)


WRITTEN["def __init__(self, value, start, end):\n  __object_setattr(self, 'value', value)\n  __object_setattr(self, 'start', start)\n  __object_setattr(self, 'end', end)\n"] = _init_65.__code__


def _init_66(self: Any, variable: Any, expression: Any) -> None:
    __object_setattr(self, 'variable', variable)
    __object_setattr(self, 'expression', expression)


WRITTEN["def __init__(self, variable, expression):\n  __object_setattr(self, 'variable', variable)\n  __object_setattr(self, 'expression', expression)\n"] = _init_66.__code__


def _init_67(self: Any, variable: Any, op: Any, target: Any, where: Any, group: Any) -> None:
    __object_setattr(self, 'variable', variable)
    __object_setattr(self, 'op', op)
    __object_setattr(self, 'target', target)
    __object_setattr(self, 'where', where)
    __object_setattr(self, 'group', group)


WRITTEN["def __init__(self, variable, op, target, where, group):\n  __object_setattr(self, 'variable', variable)\n  __object_setattr(self, 'op', op)\n  __object_setattr(self, 'target', target)\n  __object_setattr(self, 'where', where)\n  __object_setattr(self, 'group', group)\n"] = _init_67.__code__
