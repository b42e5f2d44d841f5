import { describe, expect, it } from 'vitest';
import { CMDLINE_NAMES, expandPlain, liquidNamesProblem, liquidUses, pathPlaceholderProblem, plainPlaceholdersIn } from '../../../../src-main/netboot/catalog/placeholders.js';

describe('plain placeholders', () => {
  it('expands version, codename and arch_alias, with or without spaces, and leaves the rest', () => {
    const values = { version: '12', codename: 'bookworm', arch_alias: 'amd64' };
    expect(expandPlain('dists/{{ codename }}/installer-{{arch_alias}}/{{  version }}/{{ mirror }}', values)).toBe('dists/bookworm/installer-amd64/12/{{ mirror }}');
    expect(expandPlain('{{ codename }}/x', { ...values, codename: null })).toBe('{{ codename }}/x');
    expect([...plainPlaceholdersIn('{{ version }}/{{ arch_alias }}/{{ version }}')].sort()).toEqual(['arch_alias', 'version']);
  });

  it('allows only the plain placeholders in paths', () => {
    expect(pathPlaceholderProblem('{{ version }}/netboot/{{ arch_alias }}/linux')).toBeNull();
    expect(pathPlaceholderProblem('{{ mirror }}/linux')).toMatch(/other than/);
    expect(pathPlaceholderProblem('{% if x %}a{% endif %}')).toMatch(/other than/);
    expect(pathPlaceholderProblem('a/{{ version')).toMatch(/other than/);
  });
});

describe('Liquid names', () => {
  it('accepts the command-line names, in outputs and tags', () => {
    expect(liquidNamesProblem('{{ answer_argument }}{% if host.hostname %} hostname={{ host.hostname }}{% endif %} {{ variables.x | default: "y" }} {{ arch_alias }}', CMDLINE_NAMES)).toBeNull();
  });

  it('names what is not allowed, and what does not parse', () => {
    expect(liquidNamesProblem('{% if secrets.pw %}{% endif %}{{ task.token }}', CMDLINE_NAMES)).toMatch(/uses "secrets", "task"/);
    expect(liquidNamesProblem('{% if x %}', CMDLINE_NAMES)).toMatch(/does not parse/);
  });

  it('tells whether a name is used', () => {
    expect(liquidUses('a {{ answer_argument }}', 'answer_argument')).toBe(true);
    expect(liquidUses('answer_argument', 'answer_argument')).toBe(false);
  });
});
