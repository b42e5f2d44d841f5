import { describe, expect, it } from 'vitest';
import { chooseEntry, grubWords, menuPath, readBootMenus, type MenuEntry } from '../../../../src-main/os-images/detect/boot-menu.js';
import { TreeLookup } from '../../../../src-main/os-images/detect/tree-lookup.js';
import { memoryTree } from '../../../helpers/memory-tree.js';

describe('menuPath', () => {
  it('turns menu paths into tree paths', () => {
    expect(menuPath('/install.amd/vmlinuz', 'isolinux')).toBe('install.amd/vmlinuz');
    expect(menuPath('vmlinuz', 'isolinux')).toBe('isolinux/vmlinuz');
    expect(menuPath('($root)/casper/vmlinuz', 'boot/grub')).toBe('casper/vmlinuz');
    expect(menuPath('::/arch/boot/x86_64/vmlinuz-linux', 'boot/syslinux')).toBe('arch/boot/x86_64/vmlinuz-linux');
    expect(menuPath('../images/pxeboot/vmlinuz', 'isolinux')).toBe('images/pxeboot/vmlinuz');
  });

  it('refuses paths above the root, variables and backslashes', () => {
    expect(menuPath('../../etc/passwd', 'isolinux')).toBeNull();
    expect(menuPath('/../x', '')).toBeNull();
    expect(menuPath('$prefix/vmlinuz', '')).toBeNull();
    expect(menuPath('\\boot\\vmlinuz', '')).toBeNull();
    expect(menuPath('/', '')).toBeNull();
  });
});

describe('grubWords', () => {
  it('splits on blanks and honours both quotes', () => {
    expect(grubWords(`menuentry 'Install Rocky Linux 9.4' --class fedora {`)).toEqual(['menuentry', 'Install Rocky Linux 9.4', '--class', 'fedora', '{']);
    expect(grubWords('linux /k a="b c" \'\' d')).toEqual(['linux', '/k', 'a=b c', '', 'd']);
  });
});

describe('readBootMenus', () => {
  it('reads syslinux labels: DEFAULT, MENU DEFAULT, KERNEL with arguments, INITRD lists and initrd= in APPEND', async () => {
    const tree = memoryTree({
      'syslinux/syslinux.cfg': 'DEFAULT two\nLABEL one\n KERNEL /k1 quiet\nLABEL two\n LINUX k2\n INITRD a.img,/b.img\n APPEND x=1\nLABEL three\n MENU DEFAULT\n KERNEL /k3\n APPEND initrd=/c.img,d.img y=2\n',
    });
    const { entries, files } = await readBootMenus(new TreeLookup(tree));
    expect(files).toEqual(['syslinux/syslinux.cfg']);
    expect(entries.map(({ title, kernel, initrds, args, isDefault }) => ({ title, kernel, initrds, args, isDefault }))).toEqual([
      { title: 'one', kernel: 'k1', initrds: [], args: 'quiet', isDefault: false },
      { title: 'two', kernel: 'syslinux/k2', initrds: ['syslinux/a.img', 'b.img'], args: 'x=1', isDefault: true },
      { title: 'three', kernel: 'k3', initrds: ['c.img', 'syslinux/d.img'], args: 'y=2', isDefault: true },
    ]);
  });

  it('marks GRUB\'s default by index (submenus count) and by title', async () => {
    const byIndex = memoryTree({ 'boot/grub/grub.cfg': 'set default=2\nmenuentry "a" {\n linux /a\n}\nsubmenu "s" {\n menuentry "s1" {\n  linux /s1\n }\n}\nmenuentry "b" {\n linux /b\n}\n' });
    const indexEntries = (await readBootMenus(new TreeLookup(byIndex))).entries;
    expect(indexEntries.filter((entry) => entry.isDefault).map((entry) => entry.title)).toEqual(['b']);
    const byTitle = memoryTree({ 'boot/grub/grub.cfg': "set default='b'\nmenuentry 'a' {\n linux /a\n}\nmenuentry 'b' {\n linuxefi /b z\n initrdefi /i1 /i2\n}\n" });
    const titleEntries = (await readBootMenus(new TreeLookup(byTitle))).entries;
    expect(titleEntries.find((entry) => entry.isDefault)).toMatchObject({ title: 'b', kernel: 'b', initrds: ['i1', 'i2'], args: 'z' });
  });

  it('finds menus case-insensitively on a plain ISO 9660 tree', async () => {
    const tree = memoryTree({ 'ISOLINUX/ISOLINUX.CFG;1': 'LABEL A\n KERNEL /BOOT/VMLINUZ\n', 'BOOT/VMLINUZ.;1': 'k' });
    const { entries } = await readBootMenus(new TreeLookup(tree));
    expect(entries[0]?.kernel).toBe('BOOT/VMLINUZ');
  });
});

describe('chooseEntry', () => {
  const entry = (title: string, fields: Partial<MenuEntry> = {}): MenuEntry => ({ loader: 'grub', file: 'g', title, kernel: '/k', initrds: [], args: '', isDefault: false, ...fields });

  it('takes the default unless it is a check/rescue/expert entry, then the first plain one', () => {
    expect(chooseEntry([entry('a'), entry('b', { isDefault: true })])?.title).toBe('b');
    expect(chooseEntry([entry('Rescue'), entry('Test this media', { isDefault: true }), entry('Install')])?.title).toBe('Install');
    expect(chooseEntry([entry('Install', { args: 'rd.live.check', isDefault: true }), entry('Install 2')])?.title).toBe('Install 2');
  });

  it('prefers entries booting the given kernel, case-insensitively, and skips COM32 modules', () => {
    const entries = [entry('menu', { kernel: 'vesamenu.c32', isDefault: true }), entry('x', { kernel: 'other' }), entry('y', { kernel: 'CASPER/VMLINUZ' })];
    expect(chooseEntry(entries, 'casper/vmlinuz')?.title).toBe('y');
    expect(chooseEntry(entries)?.title).toBe('x');
    expect(chooseEntry([entry('only', { kernel: null })])).toBeNull();
  });
});
