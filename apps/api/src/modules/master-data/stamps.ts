/** The active flag and timestamps of a master-data row, as the contract's `stampShape`. */
export const stampColumns = (alias: string) =>
  `${alias}.active, to_json(${alias}.created_at) #>> '{}' AS created_at,
   to_json(${alias}.updated_at) #>> '{}' AS updated_at`;
