// Package archtest holds the import-graph test that keeps the house rules of
// ../shared/ARCHITECTURE.md mechanical: modules meet only at their api packages,
// platform imports no module, and domain/api/ports stay framework-free. It also keeps
// docs/architecture.md's module table true to the modules/ folders and their imports.
package archtest
