// Package postal holds the postal address shape the API shares (Part 2's address):
// the orders module's order addresses are it, and a customer's saved address embeds it
// between its ids and its default flags, so both read and write the same members.
package postal

// Address is Part 2's address shape. Country is ISO 3166-1 alpha-2; State is the
// province or region.
type Address struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Company   string `json:"company"`
	Phone     string `json:"phone"`
	Address1  string `json:"address1"`
	Address2  string `json:"address2"`
	City      string `json:"city"`
	State     string `json:"state"`
	Country   string `json:"country"`
	Zip       string `json:"zip"`
}
