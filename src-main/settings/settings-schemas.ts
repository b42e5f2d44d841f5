// The settings schemas moved to settings-contract.ts; this name stays for code of areas not yet moved (issue 12).
export * from './settings-contract.js';
