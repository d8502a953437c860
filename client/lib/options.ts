// Option lists that more than one form offers: one list each, so a choice reads the same
// wherever it appears.

export interface Option {
  value: string;
  label: string;
}

/** Expected monthly lead volume: the affiliate's registration form and the campaign
 * application (docs/product.md). The server's copy is MONTHLY_VOLUME in
 * server/src/applications/mod.rs. */
export const MONTHLY_VOLUMES: readonly Option[] = [
  { value: "1-50", label: "1-50 leads" },
  { value: "50-100", label: "50-100 leads" },
  { value: "100-500", label: "100-500 leads" },
  { value: "500-1000", label: "500-1000 leads" },
  { value: "1000+", label: "1000+ leads" },
];
