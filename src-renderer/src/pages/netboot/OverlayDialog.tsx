import { Checkbox, Select, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { OverlayFieldsSchema, type CatalogEntryView, type Overlay, type OverlayFields } from '@contracts/netboot';
import { useEffect, useState } from 'react';
import { Value } from 'typebox/value';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { applyServerErrors } from '../../components/form-errors.js';
import { FormDialog } from '../../components/kit/index.js';
import { useApiAction } from '../../query/api-hooks.js';
import { keys } from '../../query/keys.js';

const FIELDS = OverlayFieldsSchema.properties;

interface OverlayForm {
  distro: string | null;
  keepMirror: boolean;
  localOnly: boolean;
  mirror: string;
  cmdline: string;
  extraInitrds: string;
  versions: string;
  hidden: string[];
}

type Errors = Partial<Record<'distro' | 'mirror' | 'cmdline' | 'extraInitrds' | 'versions' | 'hidden', string>>;

function toForm(overlay: Overlay | null, distro: string | null): OverlayForm {
  return {
    distro: overlay?.distro ?? distro,
    keepMirror: overlay?.mirror === undefined,
    localOnly: overlay?.mirror === null,
    mirror: overlay?.mirror ?? '',
    cmdline: overlay?.cmdline ?? '',
    extraInitrds: (overlay?.extra_initrds ?? []).join('\n'),
    versions: overlay?.versions && overlay.versions.length > 0 ? stringifyYaml(overlay.versions) : '',
    hidden: overlay?.hidden_versions ?? [],
  };
}

/** The overlay body from the form, or the problems of its fields (the schema's own rules, checked with Value.Check). */
export function overlayBody(form: OverlayForm): { body: OverlayFields; errors: Errors } {
  const errors: Errors = {};
  const body: OverlayFields = {};
  if (!form.keepMirror) {
    const mirror = form.localOnly ? null : form.mirror.trim();
    if (Value.Check(FIELDS.mirror, mirror)) body.mirror = mirror;
    else errors.mirror = 'An http:// or https:// base URL';
  }
  if (form.cmdline.trim() !== '') {
    if (Value.Check(FIELDS.cmdline, form.cmdline.trim())) body.cmdline = form.cmdline.trim();
    else errors.cmdline = 'At most 4096 characters';
  }
  const initrds = form.extraInitrds.split('\n').map((line) => line.trim()).filter(Boolean);
  if (initrds.length > 0) {
    if (Value.Check(FIELDS.extra_initrds, initrds)) body.extra_initrds = initrds;
    else errors.extraInitrds = 'Paths relative to the mirror (no leading /, no ..), at most 8';
  }
  if (form.versions.trim() !== '') {
    try {
      const parsed: unknown = parseYaml(form.versions);
      if (Value.Check(FIELDS.versions, parsed)) body.versions = parsed;
      else {
        // The contract's first complaint, with where it is ("/0/architectures/0/kernel").
        const first = Value.Errors(FIELDS.versions, parsed)[0];
        errors.versions = first ? `${first.instancePath || 'versions'}: ${first.message}` : 'A YAML or JSON list of versions';
      }
    } catch (error) {
      errors.versions = `Not YAML or JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (form.hidden.length > 0) {
    if (Value.Check(FIELDS.hidden_versions, form.hidden)) body.hidden_versions = form.hidden;
    else errors.hidden = 'Version labels (letters, digits, . _ -)';
  }
  return { body, errors };
}

/** API field → form field. */
function formField(path: string): keyof Errors | null {
  const top = path.split('.')[0];
  if (top === 'mirror' || top === 'cmdline') return top;
  if (top === 'extra_initrds') return 'extraInitrds';
  if (top === 'versions') return 'versions';
  if (top === 'hidden_versions') return 'hidden';
  return null;
}

const VERSIONS_EXAMPLE = `- version: "12"
  name: 12 (bookworm)
  codename: bookworm
  architectures:
    - arch: x86_64
      firmware: [bios, uefi]
      kernel: debian-installer/amd64/linux
      initrds: [debian-installer/amd64/initrd.gz]`;

/** Create or edit one distro's overlay: absent fields keep the shipped values. */
export function OverlayDialog({ opened, overlay, entries, onClose }: { opened: boolean; overlay: Overlay | null; entries: readonly CatalogEntryView[]; onClose: () => void }) {
  const [form, setForm] = useState<OverlayForm>(() => toForm(overlay, null));
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setForm(toForm(overlay, null));
    setErrors({});
    setFormError(null);
  }, [opened, overlay]);
  const set = (change: Partial<OverlayForm>) => setForm((current) => ({ ...current, ...change }));
  const save = useApiAction((api, input: { distro: string; body: OverlayFields }) => api.netboot.overlays.put(input.distro, input.body), {
    invalidate: [keys.netbootOverlays, keys.netbootCatalog, keys.netbootFiles],
    notifyErrors: false,
    success: (saved) => `Overlay of ${saved.distro} saved.`,
    onSuccess: onClose,
  });
  const entry = form.distro ? entries.find((candidate) => candidate.distro === form.distro) : undefined;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={overlay ? `Overlay of ${overlay.distro}` : 'New overlay'}
      size="xl"
      onSubmit={(event) => {
        event.preventDefault();
        setFormError(null);
        const { body, errors: problems } = overlayBody(form);
        if (!form.distro) problems.distro = 'Choose the catalog entry to change';
        setErrors(problems);
        if (Object.keys(problems).length > 0 || !form.distro) return;
        save.mutate(
          { distro: form.distro, body },
          {
            onError: (error) =>
              setFormError(
                applyServerErrors(
                  {
                    setFieldError: (path, message) => {
                      const field = formField(path);
                      if (field) setErrors((current) => ({ ...current, [field]: `${path}: ${message}` }));
                    },
                  },
                  error,
                  { map: (path) => (formField(path) ? path : null) },
                ),
              ),
          },
        );
      }}
      error={formError}
      submitLabel="Save overlay"
      pending={save.isPending}
    >
      {!overlay && (
        <Select
          label="Catalog entry"
          data={entries.map((candidate) => ({ value: candidate.distro, label: `${candidate.name} (${candidate.distro})` }))}
          searchable
          value={form.distro}
          onChange={(distro) => set({ distro })}
          error={errors.distro}
          withAsterisk
        />
      )}
      <Text size="sm" c="dimmed">
        Empty fields keep the shipped values{entry ? ` (mirror ${entry.mirror ?? 'none'})` : ''}. Deleting the overlay restores the shipped entry.
      </Text>
      <Checkbox label="Keep the shipped mirror" checked={form.keepMirror} onChange={(event) => set({ keepMirror: event.currentTarget.checked })} />
      {!form.keepMirror && (
        <>
          <Checkbox label="No mirror: the files are local only (boot root or an OS image)" checked={form.localOnly} onChange={(event) => set({ localOnly: event.currentTarget.checked })} />
          {!form.localOnly && <TextInput label="Mirror base URL" placeholder="http://mirror.lan/debian/dists/bookworm/main/installer-amd64/current/images/" value={form.mirror} onChange={(event) => set({ mirror: event.currentTarget.value })} error={errors.mirror} />}
        </>
      )}
      <Textarea label="Kernel command line (Liquid)" description="Empty: the shipped one. {{ answer_argument }}, {{ mirror }}, {{ version }}, {{ host.* }}, {{ variables.* }}" autosize minRows={2} maxRows={6} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} value={form.cmdline} onChange={(event) => set({ cmdline: event.currentTarget.value })} error={errors.cmdline} />
      <Textarea label="Extra initrds" description="One path per line, relative to the mirror (e.g. firmware.cpio.gz)" autosize minRows={1} maxRows={6} value={form.extraInitrds} onChange={(event) => set({ extraInitrds: event.currentTarget.value })} error={errors.extraInitrds} />
      <Textarea
        label="Versions (YAML or JSON)"
        description="Added, or replacing the shipped version with the same label; checked by the server"
        placeholder={VERSIONS_EXAMPLE}
        autosize
        minRows={4}
        maxRows={16}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        value={form.versions}
        onChange={(event) => set({ versions: event.currentTarget.value })}
        error={errors.versions}
      />
      <TagsInput label="Hidden versions" description="Shipped versions to hide; press Enter after each" data={(entry?.versions ?? []).map((version) => version.version)} value={form.hidden} onChange={(hidden) => set({ hidden })} error={errors.hidden} />
    </FormDialog>
  );
}
