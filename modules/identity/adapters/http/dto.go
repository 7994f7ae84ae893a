package http

import "github.com/gocommerce/commerce/modules/identity/app"

type registerRequest struct {
	Email     string `json:"email" binding:"required"`
	Password  string `json:"password" binding:"required"`
	FirstName string `json:"first_name" binding:"required"`
	LastName  string `json:"last_name" binding:"required"`
}

type loginRequest struct {
	Email    string `json:"email" binding:"required"`
	Password string `json:"password" binding:"required"`
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token" binding:"required"`
}

type customerResponse struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
}

type userResponse struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

// tokenResponse is Part 1's token response: customer for customer logins, user for
// staff logins.
type tokenResponse struct {
	AccessToken  string            `json:"access_token"`
	RefreshToken string            `json:"refresh_token"`
	TokenType    string            `json:"token_type"`
	ExpiresIn    int               `json:"expires_in"`
	Customer     *customerResponse `json:"customer,omitempty"`
	User         *userResponse     `json:"user,omitempty"`
}

// accessTokenResponse is the refresh response.
type accessTokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

func toCustomerTokenResponse(l app.CustomerLogin) tokenResponse {
	return tokenResponse{
		AccessToken: l.Tokens.AccessToken, RefreshToken: l.Tokens.RefreshToken, TokenType: app.TokenType, ExpiresIn: l.Tokens.ExpiresIn,
		Customer: &customerResponse{ID: l.Customer.ID, Email: l.Customer.Email, FirstName: l.Customer.FirstName, LastName: l.Customer.LastName},
	}
}

func toStaffTokenResponse(l app.StaffLogin) tokenResponse {
	return tokenResponse{
		AccessToken: l.Tokens.AccessToken, RefreshToken: l.Tokens.RefreshToken, TokenType: app.TokenType, ExpiresIn: l.Tokens.ExpiresIn,
		User: &userResponse{ID: l.User.ID, Email: l.User.Email, Role: l.User.Role},
	}
}
