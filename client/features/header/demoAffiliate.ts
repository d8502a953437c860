// The demo affiliate user the header signs in when a visitor picks 'Affiliate Partners'
// (docs/product.md, "The affiliate dashboard (home page header)"): sample data, not a real account. The number is from the fictional
// 555-01xx range and the address from a reserved domain.

export interface AffiliateUser {
  companyName: string;
  contactName: string;
  email: string;
  /** Ten digits. */
  phone: string;
  isLoggedIn: boolean;
}

export const DEMO_AFFILIATE: AffiliateUser = {
  companyName: "Summit Lead Partners",
  contactName: "Jordan Reyes",
  email: "jordan@summitleads.example",
  phone: "8005550123",
  isLoggedIn: true,
};
